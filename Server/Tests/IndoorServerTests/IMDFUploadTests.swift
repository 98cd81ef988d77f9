import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorArchive
import IndoorModel
import IndoorServer
import IndoorServerTestSupport
import NIOCore
import Testing

/// `PUT /v1/venues/{id}` with an IMDF archive as a zip body.
@Suite("PUT an IMDF zip")
struct IMDFUploadTests {
    /// A venue at the test archive's display point, with two nodes: what a zip then fills in.
    static let venueJSON = """
        {"id": "example", "name": "Example", "anchor": {"latitude": 48.137154, "longitude": 11.576124},
         "nodes": [{"id": "n1", "x": -8, "y": 4, "z": 2.5}, {"id": "n2", "x": 8, "y": -4, "z": 2.5}]}
        """

    static func putZip(_ client: any TestClientProtocol, _ zip: Data, id: String = "example") async throws
        -> TestResponse
    {
        var headers = ServerFixture.headers(ServerFixture.admin)
        headers[.contentType] = "application/zip"
        return try await client.execute(
            uri: "/v1/venues/\(id)", method: .put, headers: headers, body: ByteBuffer(bytes: zip))
    }

    @Test("a zip body replaces the venue's floors, rooms, walls and connections, keeps its nodes; GET gives it back")
    func storesTheVenue() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let zip = try IMDFTestZip.imdf("two-level", folder: "example/")
        try await fixture.test { client in
            #expect(try await client.putVenue(Self.venueJSON, id: "example").status == .created)
            let put = try await Self.putZip(client, zip)
            #expect(put.status == .ok, "\(put.text)")
            let stored = try Venue.decodeJSON(Data(buffer: try await client.get("/v1/venues/example").body))
            #expect(stored == (try Venue.decodeJSON(Data(buffer: put.body))))
            #expect(stored.id == "example")
            #expect(stored.name == "Example Building")
            #expect(stored.nodes.map(\.id) == ["n1", "n2"])
            #expect(stored.floors.map(\.level) == [0, 1])
            #expect(stored.floors.map(\.walls.count) == [13, 8])
            #expect(stored.zones.count == 9)
            #expect(stored.zones.first?.data == ["category": "lobby", "imdf": "unit", "amenities": "information"])
            #expect(stored.connections.map(\.levels) == [[0, 1]])
            #expect(stored.anchor?.origin == GeoCoordinate(latitude: 48.137154, longitude: 11.576124))
            // The imported map is what the command writes, with the venue's nodes.
            var expected = try IMDFArchiveFixture.imported(id: "example")
            expected.nodes = stored.nodes
            #expect(stored == expected)
        }
    }

    @Test("a bad archive gets 400 naming the file, the feature and the path, in the command's words")
    func badArchive() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        var files = try IMDFTestZip.files("two-level")
        let index = try #require(files.firstIndex { $0.path == "unit.geojson" })
        files[index].data = Data(
            String(decoding: files[index].data, as: UTF8.self).replacingOccurrences(
                of: "\"level_id\": \"00000000-0000-4000-8000-000000000002\"", with: "\"level_id\": \"nowhere\""
            ).utf8)
        let zip = try ZipWriter.archive(files)
        try await fixture.test { client in
            _ = try await client.putVenue(Self.venueJSON, id: "example")
            let bad = try await Self.putZip(client, zip)
            #expect(bad.status == .badRequest)
            #expect(bad.json["field"] as? String == "body")
            #expect(
                bad.json["message"] as? String
                    == "unit.geojson: feature '00000000-0000-4000-8000-000000000021' (features[5].properties.level_id): "
                    + "level 'nowhere' is not a level of level.geojson")
            let corrupt = try await Self.putZip(client, Data("PK\u{3}\u{4} and then nothing of a zip".utf8))
            #expect(corrupt.status == .badRequest)
            #expect(
                corrupt.json["message"] as? String
                    == "zip: not a zip archive: it has no end of central directory record")
            // A zip sent as anything but a zip is refused saying which Content-Type to give.
            let untyped = try await client.putVenue(String(decoding: zip, as: UTF8.self), id: "example")
            #expect(untyped.status == .badRequest)
            #expect(
                untyped.json["message"] as? String
                    == "the body is a zip archive, not venue JSON: send an IMDF archive with Content-Type: "
                    + "application/zip")
            // The venue is as it was.
            let venue = try Venue.decodeJSON(Data(buffer: try await client.get("/v1/venues/example").body))
            #expect(venue.floors.isEmpty)
        }
    }

    @Test("the answer to a zip carries the import's notes, grouped, and what of the archive the venue does not hold")
    func answerHasTheNotes() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        var files = try IMDFTestZip.files("two-level")
        let index = try #require(files.firstIndex { $0.path == "opening.geojson" })
        // Every opening moved 0.001° north and east (some 110 m and 75 m), off the building: on no unit boundary.
        let moved = String(decoding: files[index].data, as: UTF8.self).replacingOccurrences(
            of: "48.137", with: "48.138"
        ).replacingOccurrences(of: "11.576", with: "11.577")
        files[index].data = Data(moved.utf8)
        files.append((path: "README.txt", data: Data("by hand".utf8)))
        let zip = try ZipWriter.archive(files)
        try await fixture.test { client in
            _ = try await client.putVenue(Self.venueJSON, id: "example")
            let put = try await Self.putZip(client, zip)
            #expect(put.status == .ok, "\(put.text)")
            let summary = try #require(put.json["imdfImport"] as? [String: Any], "\(put.text)")
            let notes = try #require(summary["notes"] as? [String])
            #expect(notes.contains { $0.hasPrefix("7 × opening '…' lies on no unit boundary of floor …") }, "\(notes)")
            #expect(summary["unusedFeatures"] as? [String: Int] == ["fixture": 1, "footprint": 1])
            #expect(summary["unusedFiles"] as? [String] == ["README.txt"])
            // The answer is the venue as stored, beside the notes.
            let stored = try Venue.decodeJSON(Data(buffer: try await client.get("/v1/venues/example").body))
            #expect(stored == (try Venue.decodeJSON(Data(buffer: put.body))))
        }
    }

    @Test("one GeoJSON file of an archive sent as the archive, or as venue JSON, is refused saying what to send")
    func geoJSONFile() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let files = try IMDFTestZip.files("two-level")
        let venueFile = try #require(files.first { $0.path == "venue.geojson" }).data
        try await fixture.test { client in
            _ = try await client.putVenue(Self.venueJSON, id: "example")
            let asZip = try await Self.putZip(client, venueFile)
            #expect(asZip.status == .badRequest)
            #expect(asZip.json["field"] as? String == "body")
            #expect(
                asZip.json["message"] as? String
                    == "the body is a GeoJSON FeatureCollection (one file of an IMDF archive, such as venue.geojson), "
                    + "not an IMDF archive: send the whole archive, manifest.json and its .geojson files, as one zip")
            let asJSON = try await client.putVenue(String(decoding: venueFile, as: UTF8.self), id: "example")
            #expect(asJSON.status == .badRequest)
            #expect(
                asJSON.json["message"] as? String
                    == "the body is a GeoJSON FeatureCollection (one file of an IMDF archive, such as venue.geojson), "
                    + "not venue JSON: to import IMDF, send the whole archive as a zip with Content-Type: "
                    + "application/zip")
            // A venue JSON PUT answers as before: no notes.
            let plain = try await client.putVenue(Self.venueJSON, id: "example")
            #expect(plain.json["imdfImport"] == nil)
        }
    }

    @Test("a zip for a venue that does not exist yet is refused: it has no nodes")
    func needsNodes() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let zip = try IMDFTestZip.imdf("two-level")
        try await fixture.test { client in
            let put = try await Self.putZip(client, zip, id: "new")
            #expect(put.status == .badRequest)
            #expect(put.json["field"] as? String == "nodes")
            #expect(try await client.get("/v1/venues/new").status == .notFound)
        }
    }
}

/// The test archive as `indoor venue import` reads it.
enum IMDFArchiveFixture {
    static func imported(id: String) throws -> Venue {
        var files: [String: Data] = [:]
        for (path, data) in try IMDFTestZip.files("two-level") { files[path] = data }
        return try IMDFImporter.venue(from: files, id: id).venue
    }
}
