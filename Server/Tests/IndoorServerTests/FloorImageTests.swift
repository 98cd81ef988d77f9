import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorServer
import IndoorServerTestSupport
import NIOCore
import Testing

/// Floor-plan images: stored with the venue in both stores, and the routes of `…/floors/{level}/image`.
@Suite struct FloorImageTests {
    /// The PNG signature and a few bytes: enough for the type check (the server does not decode images).
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])

    @Test(arguments: StoreKind.tested)
    func storesPutsReplacesAndDeletes(store kind: StoreKind) async throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let store = try await database.open()
        #expect(try await store.floorImage(venue: "a", level: 0) == nil)
        let image = StoredFloorImage(
            venue: "a", level: -1, contentType: "image/png", data: Self.png, placement: nil, updatedAt: 5)
        #expect(try await store.putFloorImage(image))
        #expect(try await store.floorImage(venue: "a", level: -1) == image)
        var placed = image
        placed.placement = Data("{\"distanceMeters\":2}".utf8)
        placed.updatedAt = 6
        #expect(try await store.putFloorImage(placed) == false)
        #expect(try await store.floorImage(venue: "a", level: -1) == placed)
        #expect(try await store.floorImage(venue: "b", level: -1) == nil)
        #expect(try await store.deleteFloorImage(venue: "a", level: -1))
        #expect(try await store.deleteFloorImage(venue: "a", level: -1) == false)
        #expect(try await store.floorImage(venue: "a", level: -1) == nil)
        // Deleting the venue deletes its images.
        try await store.putFloorImage(image)
        try await store.deleteVenue(id: "a")
        #expect(try await store.floorImage(venue: "a", level: -1) == nil)
    }

    @Test func imageRoutes() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.putVenue().status == .created)
            var headers = ServerFixture.headers(ServerFixture.admin)
            headers[.contentType] = "image/png"
            let uri = "/v1/venues/tiny/floors/0/image"
            #expect(try await client.get(uri).status == .notFound)
            let put = try await client.execute(
                uri: uri, method: .put, headers: headers, body: ByteBuffer(bytes: Self.png))
            #expect(put.status == .created, "\(put.text)")
            #expect(put.json["contentType"] as? String == "image/png")
            let got = try await client.get(uri)
            #expect(got.status == .ok)
            #expect(Data(buffer: got.body) == Self.png)
            #expect(got.headers[.contentType] == "image/png")
            // The read key may not write; a body that is not an image, or not the type it says, is refused.
            let refused = try await client.execute(
                uri: uri, method: .put, headers: ServerFixture.headers(ServerFixture.read),
                body: ByteBuffer(bytes: Self.png))
            #expect(refused.status == .forbidden)
            let text = try await client.execute(
                uri: uri, method: .put, headers: headers, body: ByteBuffer(string: "hello"))
            #expect(text.status == .badRequest)
            #expect(text.json["field"] as? String == "body")
            var jpeg = ServerFixture.headers(ServerFixture.admin)
            jpeg[.contentType] = "image/jpeg"
            let wrong = try await client.execute(
                uri: uri, method: .put, headers: jpeg, body: ByteBuffer(bytes: Self.png))
            #expect(wrong.status == .badRequest)
            #expect(wrong.json["field"] as? String == "Content-Type")
            var svg = ServerFixture.headers(ServerFixture.admin)
            svg[.contentType] = "image/svg+xml"
            let drawing =
                "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"/>"
            #expect(
                try await client.execute(uri: uri, method: .put, headers: svg, body: ByteBuffer(string: drawing)).status
                    == .ok)
            #expect(try await client.get(uri).headers[.contentSecurityPolicy]?.contains("sandbox") == true)
            let big = try await client.execute(
                uri: uri, method: .put, headers: headers,
                body: ByteBuffer(bytes: Self.png + Data(count: 10 << 20)))
            #expect(big.status == .contentTooLarge)
            // Placement: two image points, their distance and a rotation.
            let placement = """
                {"imagePoints": [[10, 20], [110, 20]], "distanceMeters": 5, "at": [1, 2], "rotationDegrees": 90}
                """
            let placed = try await client.execute(
                uri: uri + "/placement", method: .put, headers: ServerFixture.headers(ServerFixture.admin),
                body: ByteBuffer(string: placement))
            #expect(placed.status == .ok, "\(placed.text)")
            let info = try await client.get(uri + "/placement").json
            let stored = info["placement"] as? [String: Any]
            #expect(stored?["distanceMeters"] as? Double == 5)
            #expect(stored?["rotationDegrees"] as? Double == 90)
            #expect(stored?["at"] as? [Double] == [1, 2])
            let same = try await client.execute(
                uri: uri + "/placement", method: .put, headers: ServerFixture.headers(ServerFixture.admin),
                body: ByteBuffer(string: "{\"imagePoints\": [[1, 1], [1, 1]], \"distanceMeters\": 5}"))
            #expect(same.status == .badRequest)
            #expect(same.json["field"] as? String == "imagePoints")
            #expect(try await client.get("/v1/venues/tiny/floors/3/image").status == .notFound)
            #expect(try await client.get("/v1/venues/tiny/floors/x/image").status == .badRequest)
            #expect(
                try await client.execute(uri: uri, method: .delete, headers: ServerFixture.headers(ServerFixture.admin))
                    .status == .noContent)
            #expect(try await client.get(uri).status == .notFound)
        }
    }
}
