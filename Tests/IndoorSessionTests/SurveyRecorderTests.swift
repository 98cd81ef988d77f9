import Foundation
import IndoorEvaluation
import IndoorModel
import IndoorPositioning
import IndoorSession
import Testing

/// A survey recorded on the device carried, through the public API only (as an app records one).
@Suite struct SurveyRecorderTests {
    @Test func betweenMarksTheTruthMovesAtConstantSpeedAndAHoldStandsStill() throws {
        var recorder = SurveyRecorder(device: "phone", startedAt: 0)
        try recorder.mark(Point2D(x: 0, y: 0), floor: 0, at: 10)
        try recorder.mark(Point2D(x: 10, y: 0), floor: 0, at: 20, hold: 5)
        try recorder.mark(Point2D(x: 10, y: 10), floor: 1, at: 35)
        try recorder.stop(at: 40)
        let track = try #require(TruthTrack.tracks(recorder.truth())["phone"])
        func at(_ time: Double) -> Point2D? { track.position(at: time)?.point }
        #expect(at(15) == Point2D(x: 5, y: 0))
        #expect(at(22.5) == Point2D(x: 10, y: 0))
        #expect(at(30) == Point2D(x: 10, y: 5))
        // Rows every 0.5 s: no gap the track would refuse to bridge.
        let times = recorder.truth().map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 <= 0.5 + 1e-9 && $1 > $0 })
        // The floor changes halfway between marks on two floors.
        #expect(track.floor(at: 29) == 0 && track.floor(at: 31) == 1)
    }

    @Test func marksFarApartOrNotFiniteGiveBoundedRows() {
        let far = SurveyMark.truth(
            device: "d",
            marks: [
                SurveyMark(time: 0, point: Point2D(x: 0, y: 0), hold: 1e12),
                SurveyMark(time: 1e12 + 10, point: Point2D(x: 1, y: 0)),
                SurveyMark(time: 2e12, point: Point2D(x: 2, y: 0)),
                SurveyMark(time: .nan, point: Point2D(x: 3, y: 0), hold: .infinity),
            ])
        // The year-long hold and the gap before the last mark are not filled; the 10 s walk is (19 rows between).
        #expect(far.count == 23)
        #expect(far.prefix(2).map(\.time) == [0, 1e12])
        #expect(far.suffix(2).map(\.time) == [1e12 + 10, 2e12])
    }

    @Test func onlyTheDevicesSightingsWhileItRecordsAreKeptWithinABound() throws {
        var recorder = SurveyRecorder(device: "phone", startedAt: 10, maximumSightings: 3)
        let early = recorder.record(Sighting(time: 9, device: "phone", node: "a", rssi: -60))
        let other = recorder.record(Sighting(time: 11, device: "other", node: "a", rssi: -60))
        #expect(!early && !other)
        for time in 11...14 { recorder.record(Sighting(time: Double(time), device: "phone", node: "a", rssi: -60)) }
        #expect(recorder.sightings.map(\.time) == [11, 12, 13])
        #expect(recorder.droppedSightings == 1)
    }

    /// The code of the error `body` throws on `recorder`, or `nil` when it throws none.
    static func refusal(
        _ recorder: inout SurveyRecorder, _ body: (inout SurveyRecorder) throws -> Void
    ) -> SurveyError.Code? {
        do {
            try body(&recorder)
            return nil
        } catch let error as SurveyError {
            return error.code
        } catch {
            Issue.record("not a SurveyError: \(error)")
            return nil
        }
    }

    @Test func badMarksAndStopsAreRefusedWithACode() throws {
        var recorder = SurveyRecorder(device: "phone", startedAt: 10)
        #expect(
            Self.refusal(&recorder) { (r: inout SurveyRecorder) in try r.stop(at: 20) } == .noMarks)
        #expect(
            Self.refusal(&recorder) { (r: inout SurveyRecorder) in try r.mark(Point2D(x: 0, y: 0), at: 5) } == .badMark)
        #expect(
            Self.refusal(&recorder) { (r: inout SurveyRecorder) in try r.mark(Point2D(x: 0, y: 0), at: 12, hold: -1) }
                == .badMark)
        #expect(
            Self.refusal(&recorder) { (r: inout SurveyRecorder) in try r.mark(Point2D(x: .nan, y: 0), at: 12) }
                == .badMark)
        #expect(
            Self.refusal(&recorder) { (r: inout SurveyRecorder) in try r.mark(Point2D(x: 0, y: 0), at: 12, hold: 4) }
                == nil)
        // Before the end of the previous mark's hold.
        #expect(
            Self.refusal(&recorder) { (r: inout SurveyRecorder) in try r.mark(Point2D(x: 1, y: 0), at: 14) } == .badMark
        )
        #expect(
            Self.refusal(&recorder) { (r: inout SurveyRecorder) in _ = try r.recording() } == .notHeard)
        #expect(
            Self.refusal(&recorder) { (r: inout SurveyRecorder) in try r.stop(at: 15) } == .badMark)
        #expect(
            Self.refusal(&recorder) { (r: inout SurveyRecorder) in try r.stop(at: 20) } == nil)
        #expect(
            Self.refusal(&recorder) { (r: inout SurveyRecorder) in try r.mark(Point2D(x: 1, y: 0), at: 21) } == .stopped
        )
        #expect(
            Self.refusal(&recorder) { (r: inout SurveyRecorder) in try r.stop(at: 22) } == .stopped)
    }

    /// A simulated office: one walker's training sightings recorded with a mark every 4 s at its true position; a
    /// session learns k-NN from the recording and locates the test walk as it does from the simulator's own truth.
    @Test func aSessionLearnsFromARecordedSurvey() throws {
        var options = SimulatorOptions()
        options.roomsPerSide = 4
        options.seed = 11
        options.duration = 120
        options.devices = 3
        let simulated = try Simulator(options: options).run()
        let train = try #require(simulated.dataset.train)
        let device = try #require(train.truth.first?.device)
        let truth = train.truth.filter { $0.device == device }.sorted { $0.time < $1.time }
        let start = try #require(truth.first?.time)
        var recorder = SurveyRecorder(device: device, startedAt: start)
        for sighting in train.sightings { recorder.record(sighting) }
        var next = start
        for row in truth where row.time >= next {
            try recorder.mark(row.point, floor: row.floor, at: row.time)
            next = row.time + 4
        }
        try recorder.stop(at: try #require(truth.last?.time))
        let recorded = try recorder.recording()
        #expect(recorded.sightings.allSatisfy { $0.device == device })

        func median(survey: Recording) throws -> Double {
            var session = try LocationSession(
                SessionConfiguration(
                    venue: simulated.venue, method: MethodCatalog.Selection("knn"), survey: survey))
            var errors: [Double] = []
            let tracks = TruthTrack.tracks(simulated.dataset.test.truth)
            for sighting in simulated.dataset.test.sightings {
                for case .fix(let fix) in session.ingest(sighting) {
                    if let point = tracks[fix.device]?.position(at: fix.time)?.point {
                        errors.append(fix.position.horizontal.distance(to: point))
                    }
                }
            }
            let sorted = errors.sorted()
            return sorted.isEmpty ? .infinity : sorted[sorted.count / 2]
        }
        let exact = Recording(
            sightings: train.sightings.filter { $0.device == device }, truth: truth)
        let fromMarks = try median(survey: recorded)
        let fromTruth = try median(survey: exact)
        #expect(fromMarks.isFinite)
        #expect(
            fromMarks <= fromTruth * 1.25 + 0.25, "recorded \(fromMarks) m, from the simulator's truth \(fromTruth) m")
    }
}
