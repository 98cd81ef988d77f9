import Foundation
import IndoorModel
import IndoorServer
import Testing

/// A venue's site survey in the store, alike on SQLite and PostgreSQL: recordings with their marks and a copy of their
/// device's sightings, deleted with their venue and erased with their device.
@Suite struct SurveyStoreTests {
    static func mark(_ time: Double, _ x: Double, _ y: Double, hold: Double = 0) -> SurveyMark {
        SurveyMark(time: time, point: Point2D(x: x, y: y), floor: 0, hold: hold)
    }

    @Test(arguments: StoreKind.tested)
    func aRecordingKeepsItsMarksInOrderAndItsSightingsWhileItRuns(store kind: StoreKind) async throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let store = try await database.open()
        try await store.putVenue(StoredVenue(id: "tiny", json: Data(ServerFixture.venueJSON.utf8)))
        let id = try await store.startSurveyRecording(venue: "tiny", device: "p", startedAt: 100)
        #expect(try await store.stopSurveyRecording(venue: "tiny", id: id, stoppedAt: 101) == .noMarks)
        #expect(try await store.addSurveyMark(Self.mark(0, 0, 0, hold: 2), venue: "tiny", recording: id) == nil)
        #expect(try await store.addSurveyMark(Self.mark(1, 5, 0), venue: "tiny", recording: id) == .beforeLast(2))
        #expect(try await store.addSurveyMark(Self.mark(10, 20, 0), venue: "tiny", recording: id) == nil)
        #expect(try await store.addSurveyMark(Self.mark(11, 20, 0), venue: "other", recording: id) == .unknown)
        let beacon = BeaconID(uuid: UUID(), major: 1, minor: 2)
        let sightings = [
            Sighting(time: 1, device: "p", node: "n1", rssi: -60),
            Sighting(time: 2, device: "p", source: .beacon(beacon), rssi: -70, txPower: -59),
        ]
        #expect(try await store.addSurveySightings(sightings, recording: id) == 2)
        #expect(try await store.surveySightings(recording: id) == sightings)
        #expect(try await store.stopSurveyRecording(venue: "tiny", id: id, stoppedAt: 110) == nil)
        #expect(try await store.stopSurveyRecording(venue: "tiny", id: id, stoppedAt: 111) == .stopped)
        #expect(try await store.addSurveyMark(Self.mark(30, 0, 0), venue: "tiny", recording: id) == .stopped)
        // Nothing is kept once it has stopped.
        #expect(try await store.addSurveySightings(sightings, recording: id) == 0)
        let listed = try await store.surveyRecordings(venue: "tiny")
        #expect(listed.count == 1)
        let recording = try #require(listed.first)
        #expect(recording.device == "p" && recording.source == .walk && recording.startedAt == 100)
        #expect(recording.stoppedAt == 110 && recording.sightings == 2 && recording.droppedSightings == 0)
        #expect(recording.marks == [Self.mark(0, 0, 0, hold: 2), Self.mark(10, 20, 0)])
        #expect(try await store.surveyRecording(venue: "tiny", id: id) == recording)
        #expect(try await store.surveyRecording(venue: "other", id: id) == nil)
        #expect(try await store.deleteSurveyRecording(venue: "tiny", id: id))
        #expect(try await !store.deleteSurveyRecording(venue: "tiny", id: id))
        #expect(try await store.surveySightings(recording: id).isEmpty)
    }

    /// A forgotten recording stops growing at ``SurveyLimits/maximumSightings``: what comes after is counted as dropped,
    /// in the batch that crosses the bound and in every later one.
    @Test(arguments: StoreKind.tested)
    func aRecordingKeepsAtMostItsBoundOfSightingsAndCountsTheRest(store kind: StoreKind) async throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let store = try await database.open()
        try await store.putVenue(StoredVenue(id: "tiny", json: Data(ServerFixture.venueJSON.utf8)))
        let id = try await store.startSurveyRecording(venue: "tiny", device: "p", startedAt: 0)
        let bound = SurveyLimits.maximumSightings
        let batch = 50_000
        var sent = 0
        var kept = 0
        // Batches up to 10 short of the bound, then one of 25 that crosses it, then one past it.
        while sent < bound - 10 {
            let count = min(batch, bound - 10 - sent)
            let sightings = (0..<count).map {
                Sighting(time: Double(sent + $0) * 0.01, device: "p", node: "n1", rssi: -60)
            }
            kept += try await store.addSurveySightings(sightings, recording: id)
            sent += count
        }
        #expect(kept == bound - 10)
        let crossing = (0..<25).map { Sighting(time: Double(sent + $0) * 0.01, device: "p", node: "n2", rssi: -70) }
        #expect(try await store.addSurveySightings(crossing, recording: id) == 10)
        #expect(try await store.addSurveySightings(Array(crossing.prefix(5)), recording: id) == 0)
        let recording = try #require(try await store.surveyRecording(venue: "tiny", id: id))
        #expect(recording.sightings == bound)
        #expect(recording.droppedSightings == 20)
        let stored = try await store.surveySightings(recording: id)
        #expect(stored.count == bound)
        #expect(stored.last == crossing[9])
    }

    @Test(arguments: StoreKind.tested)
    func anImportReplacesTheSurveyAndGoesWithItsVenueAndItsDevice(store kind: StoreKind) async throws {
        let database = try TestDatabase(kind)
        defer { database.remove() }
        let store = try await database.open()
        try await store.putVenue(StoredVenue(id: "tiny", json: Data(ServerFixture.venueJSON.utf8)))
        let walk = try await store.startSurveyRecording(venue: "tiny", device: "p", startedAt: 100)
        #expect(try await store.addSurveyMark(Self.mark(0, 0, 0), venue: "tiny", recording: walk) == nil)
        let imported = SurveyImport(
            device: "q", marks: [Self.mark(5, 1, 1), Self.mark(6, 2, 1)],
            sightings: [Sighting(time: 5, device: "q", node: "n2", rssi: -70)])
        // At a start (`--survey`): the imports are replaced, the walks stay.
        try await store.replaceSurvey(venue: "tiny", with: [imported], storedAt: 200, keepingWalks: true)
        try await store.replaceSurvey(venue: "tiny", with: [imported], storedAt: 201, keepingWalks: true)
        var recordings = try await store.surveyRecordings(venue: "tiny")
        #expect(recordings.map(\.source) == [.walk, .imported])
        #expect(recordings.last?.marks == imported.marks && recordings.last?.stoppedAt == 201)
        #expect(recordings.last?.truth().count == 2)
        // A survey put whole replaces everything.
        let ids = try await store.replaceSurvey(venue: "tiny", with: [imported], storedAt: 300, keepingWalks: false)
        recordings = try await store.surveyRecordings(venue: "tiny")
        #expect(recordings.map(\.id) == ids)
        #expect(try await store.surveySightings(recording: try #require(ids.first)) == imported.sightings)
        // Erasing the device erases its recordings, in every venue.
        let counts = try await store.eraseDevice("q", venue: nil)
        #expect(counts.surveyRecordings == 1)
        #expect(try await store.surveyRecordings(venue: "tiny").isEmpty)
        // Deleting the venue deletes its survey.
        let kept = try await store.startSurveyRecording(venue: "tiny", device: "p", startedAt: 400)
        #expect(try await store.addSurveySightings(imported.sightings, recording: kept) == 1)
        #expect(try await store.deleteVenue(id: "tiny"))
        #expect(try await store.surveyRecordings(venue: "tiny").isEmpty)
        #expect(try await store.surveySightings(recording: kept).isEmpty)
    }
}
