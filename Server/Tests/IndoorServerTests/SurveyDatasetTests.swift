import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorEvaluation
import IndoorModel
import IndoorPositioning
import IndoorServer
import IndoorServerTestSupport
import IndoorSession
import NIOCore
import Testing

/// A real dataset's survey (`datasets/openhps-room`: 60 spots of a room, each its own device) recorded through the
/// API as a surveyor would: a recording per spot, its sightings through `POST /v1/sightings`, a mark held for as long
/// as the spot was measured, a stop; the venue learns it and positions as well as with the same survey given as files.
@Suite struct SurveyDatasetTests {
    /// `sightings` as the body of `POST /v1/sightings` for `venue`.
    static func body(_ sightings: some Collection<Sighting>, venue: String) -> String {
        let items = sightings.map { sighting -> String in
            guard case .node(let node) = sighting.source else { return "" }
            return
                #"{"t": \#(sighting.time), "device": "\#(sighting.device)", "node": "\#(node)", "rssi": \#(sighting.rssi)}"#
        }
        return #"{"venue": "\#(venue)", "sightings": [\#(items.joined(separator: ", "))]}"#
    }

    /// The median horizontal error of `session`'s fixes over `test`'s sightings against its truth, metres.
    static func median(_ session: LocationSession, test: Recording) throws -> Double {
        var session = session
        let tracks = TruthTrack.tracks(test.truth)
        var errors: [Double] = []
        for event in session.ingest(test.sightings) {
            guard case .fix(let fix) = event, let truth = tracks[fix.device]?.position(at: fix.time) else { continue }
            errors.append(fix.position.horizontal.distance(to: truth.point))
        }
        #expect(errors.count > 100)
        return try #require(ErrorSummary(errors: errors, misses: 0).medianMeters as Double?)
    }

    /// `recording` moved `seconds` earlier.
    static func shifted(_ recording: Recording, by seconds: Double) -> Recording {
        Recording(
            sightings: recording.sightings.map {
                var sighting = $0
                sighting.time -= seconds
                return sighting
            },
            truth: recording.truth.map {
                var point = $0
                point.time -= seconds
                return point
            })
    }

    @Test func aRealDatasetsSurveyRecordedThroughTheAPIIsLearnedAndPositionsAsTheFilesDo() async throws {
        let folder = RepositoryFiles.url("datasets/openhps-room")
        let dataset = try DatasetReader.read(folder: folder)
        let venue = try DatasetReader.venue(folder: folder)
        let raw = try #require(dataset.train)
        // Seconds of a recording (the dataset's Unix times of 2020 are older than the server's window takes).
        let origin = try #require(raw.sightings.map(\.time).min()).rounded(.down)
        let train = Self.shifted(raw, by: origin)
        let test = Self.shifted(dataset.test, by: origin)
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(
                try await client.putVenue(String(decoding: try venue.encodeJSON(), as: UTF8.self), id: venue.id).status
                    == .created)
            let base = "/v1/venues/\(venue.id)/survey/recordings"
            let truth = Dictionary(grouping: train.truth, by: \.device)
            var recordings: [String: Int] = [:]
            for device in truth.keys.sorted() {
                let started = try await client.send(base, .post, #"{"device": "\#(device)"}"#)
                recordings[device] = try #require(started.json["id"] as? Int)
            }
            // The sightings as gateways would send them: in time order, a batch at a time.
            let ordered = train.sightings.sorted { $0.time < $1.time }
            var start = 0
            while start < ordered.count {
                let batch = ordered[start..<min(start + 100, ordered.count)]
                let response = try await client.post(Self.body(batch, venue: venue.id))
                #expect(response.status == .ok && response.json["rejected"] as? Int == 0)
                start += batch.count
            }
            // Each spot marked where it was, held for as long as it was measured.
            for (device, rows) in truth.sorted(by: { $0.key < $1.key }) {
                let times = rows.map(\.time)
                let (first, last) = (try #require(times.min()), try #require(times.max()))
                let spot = try #require(rows.first).point
                let id = try #require(recordings[device])
                let mark = #"{"x": \#(spot.x), "y": \#(spot.y), "t": \#(first), "hold": \#(last - first)}"#
                #expect(try await client.send("\(base)/\(id)/marks", .post, mark).status == .created)
                let stopped = try await client.send("\(base)/\(id)/stop", .post)
                #expect(stopped.status == .ok, "\(device): \(stopped.text)")
            }
            let survey = try await client.get("/v1/venues/\(venue.id)/survey", key: ServerFixture.admin)
            #expect(survey.json["sightings"] as? Int == train.sightings.count)
            #expect((survey.json["recordings"] as? [Any])?.count == truth.count)
            await fixture.server.hub.learned(venue: venue.id)
            let list = try await client.get("/v1/venues")
            let summary = (list.json["venues"] as? [[String: Any]])?.first
            #expect(summary?["survey"] as? String == "learned")
            #expect((summary?["surveyValidation"] as? [String: Any])?["estimator"] is String)
        }
        // The survey learned from the API's recordings positions the test walk as well as the files' survey does.
        let recorded = try #require(fixture.server.hub.surveys[venue.id])
        #expect(recorded.sightings.count == train.sightings.count)
        let fromAPI = try Self.median(LocationSession(SessionConfiguration(venue: venue, survey: recorded)), test: test)
        let fromFiles = try Self.median(LocationSession(SessionConfiguration(venue: venue, survey: train)), test: test)
        #expect(fromAPI <= fromFiles * 1.05, "from the API \(fromAPI) m, from the files \(fromFiles) m")
    }
}
