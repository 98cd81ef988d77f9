import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorArchive
import IndoorModel
import IndoorServer
import NIOCore
import Testing

/// A venue's site survey recorded through the API (`/v1/venues/{id}/survey…`, admin key), on both stores.
@Suite struct SurveyRoutesTests {
    static let admin = ServerFixture.headers(ServerFixture.admin)

    @Test(arguments: StoreKind.tested)
    func aRecordingIsStartedMarkedAndStoppedWithClearErrorsForBadInput(store kind: StoreKind) async throws {
        let fixture = try await ServerFixture(store: kind)
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.putVenue().status == .created)
            let base = "/v1/venues/tiny/survey/recordings"
            let started = try await client.send(base, .post, #"{"device": "p"}"#)
            #expect(started.status == .created)
            let id = try #require(started.json["id"] as? Int)
            #expect(started.json["startedAt"] is Double && started.json["running"] as? Bool == true)
            let again = try await client.send(base, .post, #"{"device": "p"}"#)
            #expect(again.status == .conflict && again.json["field"] as? String == "device")
            #expect(
                try await client.send("/v1/venues/nowhere/survey/recordings", .post, #"{"device": "p"}"#).status
                    == .notFound)
            #expect(try await client.send(base, .post, #"{"device": ""}"#).json["field"] as? String == "device")
            // A stop without marks is refused, and the recording runs on.
            let early = try await client.send("\(base)/\(id)/stop", .post)
            #expect(early.status == .badRequest && early.json["field"] as? String == "marks")
            #expect(early.json["code"] as? String == "noMarks")
            // The device's sightings are kept while the recording runs; another device's are not.
            let other = #"[{"t": 0, "device": "someone", "node": "n1", "rssi": -60}]"#
            #expect(try await client.post(#"{"venue": "tiny", "sightings": \#(other)}"#).status == .ok)
            #expect(try await client.post(#"{"venue": "tiny", "sightings": \#(ServerFixture.walk)}"#).status == .ok)
            let marks = "\(base)/\(id)/marks"
            let outside = try await client.send(marks, .post, #"{"x": 40, "y": 0, "t": 0}"#)
            #expect(outside.status == .badRequest && outside.json["field"] as? String == "x")
            let floor = try await client.send(marks, .post, #"{"x": 0, "y": 0, "floor": 3, "t": 0}"#)
            #expect(floor.status == .badRequest && floor.json["field"] as? String == "floor")
            #expect(try await client.send(marks, .post, #"{"y": 0}"#).json["field"] as? String == "x")
            #expect(try await client.send(marks, .post, #"{"x": 0, "y": 0, "t": 0, "hold": -1}"#).status == .badRequest)
            let first = try await client.send(marks, .post, #"{"x": 0, "y": 0, "t": 0, "hold": 1}"#)
            #expect(first.status == .created && first.json["floor"] as? Int == 0 && first.json["hold"] as? Double == 1)
            #expect(try await client.send(marks, .post, #"{"x": 20, "y": 0, "t": 10}"#).status == .created)
            let late = try await client.send(marks, .post, #"{"x": 0, "y": 0, "t": 5}"#)
            #expect(late.status == .badRequest && late.json["field"] as? String == "t")
            // Without `t`: the venue's present (its latest data time, 22, moved on by the server's clock since).
            let now = try await client.send(marks, .post, #"{"x": 0, "y": 0}"#)
            #expect(now.status == .created)
            #expect(try #require(now.json["t"] as? Double) >= 22)
            let stopped = try await client.send("\(base)/\(id)/stop", .post)
            #expect(stopped.status == .ok && stopped.json["running"] as? Bool == false)
            #expect(try await client.send("\(base)/\(id)/stop", .post).status == .conflict)
            #expect(try await client.send(marks, .post, #"{"x": 0, "y": 0}"#).status == .conflict)
            #expect(try await client.send("\(base)/99/stop", .post).status == .notFound)
            #expect(try await client.send("\(base)/x/stop", .post).json["field"] as? String == "recording")

            // The survey: its recording with the walk's 6 sightings, its marks, its coverage; read with an admin key.
            #expect(try await client.get("/v1/venues/tiny/survey").status == .forbidden)
            let survey = try await client.get("/v1/venues/tiny/survey", key: ServerFixture.admin)
            #expect(survey.status == .ok)
            #expect(survey.json["sightings"] as? Int == 6)
            let recordings = try #require(survey.json["recordings"] as? [[String: Any]])
            #expect(recordings.count == 1 && (recordings.first?["marks"] as? [Any])?.count == 3)
            #expect(recordings.first?["device"] as? String == "p" && recordings.first?["source"] as? String == "walk")
            let truthRows = try #require(survey.json["truthRows"] as? Int)
            #expect(truthRows > 20)
            let cells = try #require((survey.json["coverage"] as? [String: Any])?["cells"] as? [[String: Any]])
            #expect(cells.contains { $0["x"] as? Double == 0 && $0["y"] as? Double == 0 })
            #expect(cells.contains { $0["x"] as? Double == 20 && $0["y"] as? Double == 0 })
            // The stop relearns the venue from the survey in the background.
            let hub = fixture.server.hub
            #expect(hub.surveys["tiny"]?.truth.count == truthRows)
            #expect(hub.surveys["tiny"]?.sightings.count == 6)
            await hub.learned(venue: "tiny")
            #expect(hub.surveyState(venue: "tiny") != SurveyState.none)
        }
    }

    @Test(arguments: StoreKind.tested)
    func aSurveyIsExportedAsADatasetAndPutBackAsAZipOrAForm(store kind: StoreKind) async throws {
        let fixture = try await ServerFixture(store: kind)
        defer { fixture.remove() }
        try await fixture.test { client in
            _ = try await client.putVenue()
            #expect(try await client.get("/v1/venues/tiny/survey/export", key: ServerFixture.admin).status == .notFound)
            let id = try await client.record(device: "p", marks: [(0, 0, 0, 1), (10, 20, 0, 0), (20, 0, 0, 0)])
            #expect(id > 0)
            let export = try await client.get("/v1/venues/tiny/survey/export", key: ServerFixture.admin)
            #expect(export.status == .ok)
            #expect(export.headers[.contentType] == "application/zip")
            #expect(export.headers[.contentDisposition] == #"attachment; filename="tiny-survey.zip""#)
            let files = try ZipArchive(Data(buffer: export.body)).files
            #expect(Set(files.keys) == ["nodes.csv", "train/sightings.csv", "train/truth.csv"])
            let sightings = try DatasetCSV.parseSightings(
                String(decoding: try #require(files["train/sightings.csv"]), as: UTF8.self)
            ).get()
            let truth = try DatasetCSV.parseTruth(
                String(decoding: try #require(files["train/truth.csv"]), as: UTF8.self)
            ).get()
            // The walk's sightings between the first mark and the last (t = 22 is after it).
            #expect(sightings.count == 5 && truth.count > 20)

            // Put back as the zip: one imported recording, its truth rows as they were.
            var zip = Self.admin
            zip[.contentType] = "application/zip"
            let put = try await client.execute(
                uri: "/v1/venues/tiny/survey", method: .put, headers: zip, body: export.body)
            #expect(put.status == .ok)
            let recordings = try #require(put.json["recordings"] as? [[String: Any]])
            #expect(recordings.count == 1 && recordings.first?["source"] as? String == "imported")
            #expect(put.json["truthRows"] as? Int == truth.count && put.json["sightings"] as? Int == 5)
            #expect(put.json["state"] as? String == "learning" || put.json["state"] as? String == "learned")

            // As a form with the two parts.
            let boundary = "survey-boundary"
            var form = Self.admin
            form[.contentType] = "multipart/form-data; boundary=\(boundary)"
            func part(_ name: String, _ data: Data?) -> String {
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(name).csv\"\r\n"
                    + "Content-Type: text/csv\r\n\r\n" + String(decoding: data ?? Data(), as: UTF8.self) + "\r\n"
            }
            let body =
                part("sightings", files["train/sightings.csv"]) + part("truth", files["train/truth.csv"])
                + "--\(boundary)--\r\n"
            let formPut = try await client.execute(
                uri: "/v1/venues/tiny/survey", method: .put, headers: form, body: ByteBuffer(string: body))
            #expect(formPut.status == .ok, "\(formPut.text)")
            #expect(formPut.json["truthRows"] as? Int == truth.count)
            let half = part("sightings", files["train/sightings.csv"]) + "--\(boundary)--\r\n"
            let missing = try await client.execute(
                uri: "/v1/venues/tiny/survey", method: .put, headers: form, body: ByteBuffer(string: half))
            #expect(missing.status == .badRequest && missing.json["field"] as? String == "body")
            let badRow =
                part("sightings", Data("t,device,node,rssi\n1,p,n1,loud\n".utf8))
                + part("truth", files["train/truth.csv"]) + "--\(boundary)--\r\n"
            let bad = try await client.execute(
                uri: "/v1/venues/tiny/survey", method: .put, headers: form, body: ByteBuffer(string: badRow))
            #expect(bad.status == .badRequest && bad.json["field"] as? String == "sightings", "\(bad.text)")
            let deaf =
                part("sightings", Data("t,device,node,rssi\n1,p,elsewhere,-60\n".utf8))
                + part("truth", files["train/truth.csv"]) + "--\(boundary)--\r\n"
            let unheard = try await client.execute(
                uri: "/v1/venues/tiny/survey", method: .put, headers: form, body: ByteBuffer(string: deaf))
            #expect(unheard.status == .badRequest && unheard.json["field"] as? String == "sightings", "\(unheard.text)")
            let text = try await client.execute(
                uri: "/v1/venues/tiny/survey", method: .put, headers: Self.admin, body: ByteBuffer(string: "x"))
            #expect(text.status == .badRequest && text.json["field"] as? String == "Content-Type")
            // The refused puts left the survey as it was.
            let survey = try await client.get("/v1/venues/tiny/survey", key: ServerFixture.admin)
            #expect(survey.json["truthRows"] as? Int == truth.count)
        }
    }

    @Test(arguments: StoreKind.tested)
    func aRecordingGoesWhenDeletedWithItsDeviceAndWithItsVenue(store kind: StoreKind) async throws {
        let fixture = try await ServerFixture(store: kind)
        defer { fixture.remove() }
        try await fixture.test { client in
            _ = try await client.putVenue()
            let first = try await client.record(device: "p", marks: [(0, 0, 0, 1), (10, 20, 0, 0)])
            #expect(try await client.send("/v1/venues/tiny/survey/recordings/\(first)", .delete).status == .noContent)
            #expect(try await client.send("/v1/venues/tiny/survey/recordings/\(first)", .delete).status == .notFound)
            await fixture.server.hub.learned(venue: "tiny")
            var survey = try await client.get("/v1/venues/tiny/survey", key: ServerFixture.admin)
            #expect((survey.json["recordings"] as? [Any])?.isEmpty == true)
            #expect(survey.json["state"] as? String == "none")
            #expect(fixture.server.hub.surveys["tiny"] == nil)

            // The device's erasure erases its recordings.
            _ = try await client.record(device: "p", marks: [(0, 0, 0, 1), (10, 20, 0, 0)])
            let erased = try await client.send("/v1/devices/p", .delete)
            #expect(erased.status == .ok)
            #expect((erased.json["erased"] as? [String: Any])?["surveyRecordings"] as? Int == 1)
            survey = try await client.get("/v1/venues/tiny/survey", key: ServerFixture.admin)
            #expect((survey.json["recordings"] as? [Any])?.isEmpty == true)

            // Deleting the venue deletes its survey: put again, it has none.
            _ = try await client.record(device: "p", marks: [(0, 0, 0, 1), (10, 20, 0, 0)])
            #expect(try await client.send("/v1/venues/tiny", .delete).status == .noContent)
            _ = try await client.putVenue()
            survey = try await client.get("/v1/venues/tiny/survey", key: ServerFixture.admin)
            #expect((survey.json["recordings"] as? [Any])?.isEmpty == true)
            #expect(try await fixture.server.hub.store.surveyRecordings(venue: "tiny").isEmpty)
        }
    }
}

extension SurveyRoutesTests {
    @Test(arguments: StoreKind.tested)
    func aRecordingRunsOnAcrossARestartAndASurveyGivenAtTheStartIsStoredBesideTheWalks(store kind: StoreKind)
        async throws
    {
        let fixture = try await ServerFixture(store: kind)
        defer { fixture.remove() }
        _ = try await fixture.server.hub.putVenue(id: "tiny", json: Data(ServerFixture.venueJSON.utf8))
        let id = try await fixture.server.hub.startSurveyRecording(venue: "tiny", device: "p").id
        // Restarted with a survey given (`--survey tiny=FOLDER`): it is stored as an import, the walk runs on.
        let given = Recording(
            sightings: [Sighting(time: 0, device: "s", node: "n1", rssi: -55)],
            truth: [TruthPoint(time: 0, device: "s", point: Point2D(x: 0, y: 0), floor: 0)])
        let again = try await ServerFixture(store: kind, database: fixture.database, surveys: ["tiny": given])
        try await again.test { client in
            let later =
                #"[{"t": 30, "device": "p", "node": "n1", "rssi": -59}, {"t": 31, "device": "p", "node": "n2", "rssi": -70}]"#
            #expect(try await client.post(#"{"venue": "tiny", "sightings": \#(later)}"#).status == .ok)
            for mark in [#"{"x": 0, "y": 0, "t": 30}"#, #"{"x": 20, "y": 0, "t": 31}"#] {
                #expect(
                    try await client.send("/v1/venues/tiny/survey/recordings/\(id)/marks", .post, mark).status
                        == .created)
            }
            #expect(try await client.send("/v1/venues/tiny/survey/recordings/\(id)/stop", .post).status == .ok)
            let survey = try await client.get("/v1/venues/tiny/survey", key: ServerFixture.admin)
            let recordings = try #require(survey.json["recordings"] as? [[String: Any]])
            #expect(recordings.map { $0["source"] as? String } == ["walk", "imported"])
            #expect(recordings.first?["sightings"] as? Int == 2)
        }
        // The walk and the import are learned together; a survey given again replaces the import, the walk stays.
        #expect(again.server.hub.surveys["tiny"]?.truth.contains { $0.device == "s" } == true)
        #expect(again.server.hub.surveys["tiny"]?.truth.contains { $0.device == "p" } == true)
        let third = try await ServerFixture(store: kind, database: fixture.database, surveys: ["tiny": given])
        #expect(try await third.server.hub.store.surveyRecordings(venue: "tiny").map(\.source) == [.walk, .imported])
        #expect(third.server.hub.surveys["tiny"]?.truth.contains { $0.device == "p" } == true)
        // Sightings are pruned by retention; a survey's copies are not.
        #expect(
            try await third.server.hub.store.pruneSightings(receivedBefore: .greatestFiniteMagnitude, limit: 1000) > 0)
        #expect(try await third.server.hub.store.surveySightings(recording: id).count == 2)
    }
}

extension TestClientProtocol {
    /// `method` on `uri` with the admin key and `body`.
    func send(_ uri: String, _ method: HTTPRequest.Method, _ body: String? = nil) async throws -> TestResponse {
        try await execute(
            uri: uri, method: method, headers: SurveyRoutesTests.admin, body: body.map { ByteBuffer(string: $0) })
    }

    /// Records the README's walk of `device` in venue `tiny` with `marks` (t, x, y, hold), and stops.
    /// - Returns: The recording's id.
    func record(device: String, marks: [(Double, Double, Double, Double)]) async throws -> Int {
        let started = try await send("/v1/venues/tiny/survey/recordings", .post, #"{"device": "\#(device)"}"#)
        let id = try #require(started.json["id"] as? Int)
        let walk = ServerFixture.walk.replacingOccurrences(of: #""device": "p""#, with: #""device": "\#(device)""#)
        #expect(try await post(#"{"venue": "tiny", "sightings": \#(walk)}"#).status == .ok)
        for (time, x, y, hold) in marks {
            let body = #"{"x": \#(x), "y": \#(y), "t": \#(time), "hold": \#(hold)}"#
            #expect(try await send("/v1/venues/tiny/survey/recordings/\(id)/marks", .post, body).status == .created)
        }
        #expect(try await send("/v1/venues/tiny/survey/recordings/\(id)/stop", .post).status == .ok)
        return id
    }
}
