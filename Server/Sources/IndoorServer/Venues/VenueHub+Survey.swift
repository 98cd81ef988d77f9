import Foundation
import IndoorModel

/// A venue's site survey recorded and managed through the server (docs/SURVEY.md): a recording of one device is
/// started, marked where the device is at each turn or spot, and stopped; while it runs, what the server ingests of
/// that device is copied to it (``IngestPipeline``). A stopped recording, a deleted one or a survey put whole relearns
/// the venue in the background (``SurveyLearning``), which is served meanwhile as it was.
extension VenueHub {
    /// The survey recordings running now (the ingest pipeline's).
    var openSurveys: OpenSurveyRecordings { pipeline.surveys }

    /// A mark as asked for: where the device is, and optionally when and for how long.
    public struct SurveyMarkRequest: Hashable, Sendable {
        /// Metres in the venue's local frame.
        public var x: Double
        public var y: Double
        /// The floor's level; may be left out when the venue has one floor (or none).
        public var floor: Int?
        /// Seconds on the sightings' clock; `nil`: now (the venue's present: its latest data time moved on by the
        /// server's clock since, or the server's clock for a venue that has taken nothing yet).
        public var time: Double?
        /// Seconds the device stood there from `time` (0: passed while walking).
        public var hold: Double

        public init(x: Double, y: Double, floor: Int? = nil, time: Double? = nil, hold: Double = 0) {
            self.x = x
            self.y = y
            self.floor = floor
            self.time = time
            self.hold = hold
        }
    }

    /// The venue `id`, or ``APIError`` 404.
    private func surveyedVenue(_ id: String) throws -> Venue {
        guard let venue = registry.venue(id: id) else { throw APIError.unknownVenue(id) }
        return venue
    }

    /// `venue`'s present in its own time, seconds: its latest data time moved on by the server's clock since it
    /// arrived; the server's clock (Unix seconds) for a venue that has taken nothing yet or runs elsewhere.
    func present(venue id: String) -> Double {
        let now = wallClock()
        let present = registry.runtime(id).flatMap { runtime in
            runtime.locked { state in state.lastDataTime.map { $0 + max(0, now - (state.lastArrival ?? now)) } }
        }
        return present ?? now
    }

    /// Starts a recording of `device` (as the device's sightings name it) in `venue`'s survey, at the server's clock.
    /// - Returns: The recording, without marks.
    /// - Throws: ``APIError``: 404 for an unknown venue; 400 (`device`) for an empty or too long id; 409 (`device`)
    ///   when the device has a recording running in the venue; 400 (`venue`) beyond ``SurveyLimits/maximumRecordings``.
    public func startSurveyRecording(venue id: String, device: String) async throws -> StoredSurveyRecording {
        let venue = try surveyedVenue(id)
        guard !device.isEmpty, device.count <= Self.maximumIDLength else {
            throw APIError.badRequest(field: "device", "a device id has 1…\(Self.maximumIDLength) characters")
        }
        // As ingest stores the device's sightings: a gateway's address becomes its pseudonym.
        let stored = pseudonyms.device(device, nodes: Set(venue.nodes.map(\.id)))
        let open = try await openSurveys.open(venue: id, store: store)
        if let running = open[stored] {
            throw APIError(
                status: .conflict, code: "recordingRunning", field: "device",
                message: "device '\(device)' has recording \(running) of venue '\(id)' running: stop it first")
        }
        let count = try await store.surveyRecordings(venue: id).count
        guard count < SurveyLimits.maximumRecordings else {
            throw APIError.badRequest(
                field: "venue",
                "venue '\(id)' has \(count) survey recordings, the most it keeps: delete some first")
        }
        let startedAt = wallClock()
        let recording = try await store.startSurveyRecording(venue: id, device: stored, startedAt: startedAt)
        openSurveys.set(venue: id, device: stored, recording: recording)
        return StoredSurveyRecording(
            id: recording, venue: id, device: stored, source: .walk, startedAt: startedAt, stoppedAt: nil, marks: [],
            sightings: 0, droppedSightings: 0)
    }

    /// Marks where the device of recording `recording` is (``SurveyMarkRequest``).
    /// - Returns: The mark as stored.
    /// - Throws: ``APIError``: 404 for an unknown venue or recording; 400 naming the field for a number that is not
    ///   finite, a negative hold, a floor the venue does not have (or none given where it has several), a point outside
    ///   the floor's outline, a time before the end of the previous mark; 409 (`recording`) once it has stopped.
    public func markSurvey(
        venue id: String, recording: Int64, _ request: SurveyMarkRequest
    ) async throws -> SurveyMark {
        let venue = try surveyedVenue(id)
        for (field, value) in [("x", request.x), ("y", request.y), ("t", request.time ?? 0), ("hold", request.hold)]
        where !value.isFinite {
            throw APIError.badRequest(field: field, "\(field) is not a finite number")
        }
        guard request.hold >= 0 else {
            throw APIError.badRequest(field: "hold", "hold \(request.hold) s: a hold is 0 or more seconds")
        }
        let point = Point2D(x: request.x, y: request.y)
        let floor = try Self.surveyFloor(request.floor, point: point, venue: venue)
        let mark = SurveyMark(time: request.time ?? present(venue: id), point: point, floor: floor, hold: request.hold)
        switch try await store.addSurveyMark(mark, venue: id, recording: recording) {
        case nil: return mark
        case .unknown?: throw Self.unknownRecording(recording, venue: id)
        case .stopped?, .noMarks?: throw Self.stoppedRecording(recording)
        case .beforeLast(let end)?:
            throw APIError.badRequest(
                field: "t",
                "a mark at \(DatasetCSV.number(mark.time)) s is before \(DatasetCSV.number(end)) s, the end of the "
                    + "previous mark: marks come in time order")
        case .full?:
            throw APIError.badRequest(
                field: "recording", "recording \(recording) has \(SurveyLimits.maximumMarks) marks, the most it keeps")
        }
    }

    /// The floor of a mark at `point`: the one given, else the venue's only floor; the point must lie within its
    /// outline (when it has one).
    private static func surveyFloor(_ level: Int?, point: Point2D, venue: Venue) throws -> Int? {
        guard !venue.floors.isEmpty else { return level }
        let levels = venue.floors.map { String($0.level) }.joined(separator: ", ")
        let floor: Floor
        if let level {
            guard let match = venue.floors.first(where: { $0.level == level }) else {
                throw APIError.badRequest(
                    field: "floor", "venue '\(venue.id)' has no floor at level \(level) (its floors: \(levels))")
            }
            floor = match
        } else {
            guard venue.floors.count == 1, let only = venue.floors.first else {
                throw APIError.badRequest(
                    field: "floor", "venue '\(venue.id)' has floors \(levels): say which floor the mark is on")
            }
            floor = only
        }
        if !floor.contains(point) {
            let spot = "(\(DatasetCSV.number(point.x)), \(DatasetCSV.number(point.y)))"
            throw APIError.badRequest(
                field: "x",
                "the mark at \(spot) m is outside the outline of floor \(floor.level) of venue "
                    + "'\(venue.id)': tap where the device is, on the plan")
        }
        return floor.level
    }

    /// Stops recording `recording` at the server's clock, and relearns the venue from its survey in the background.
    /// - Returns: The recording, stopped.
    /// - Throws: ``APIError``: 404 for an unknown venue or recording; 409 (`recording`) when it has stopped already;
    ///   400 (`marks`, code `noMarks`) without a mark; 400 (`device`, code `notHeard`) when none of the device's
    ///   sightings arrived while it ran (the id is not the one its sightings name). Either 400 leaves it running.
    public func stopSurveyRecording(venue id: String, recording: Int64) async throws -> StoredSurveyRecording {
        _ = try surveyedVenue(id)
        guard var stored = try await store.surveyRecording(venue: id, id: recording) else {
            throw Self.unknownRecording(recording, venue: id)
        }
        guard stored.isOpen else { throw Self.stoppedRecording(recording) }
        guard !stored.marks.isEmpty else { throw Self.noMarks(recording) }
        guard stored.sightings > 0 else {
            throw APIError.badRequest(
                field: "device",
                "no sighting of '\(stored.device)' arrived while recording \(recording) ran: is the device id the one "
                    + "its sightings name? It keeps running; delete it to give up",
                code: "notHeard")
        }
        let stoppedAt = wallClock()
        switch try await store.stopSurveyRecording(venue: id, id: recording, stoppedAt: stoppedAt) {
        case nil: break
        case .unknown?: throw Self.unknownRecording(recording, venue: id)
        case .noMarks?: throw Self.noMarks(recording)
        case .stopped?, .beforeLast?, .full?: throw Self.stoppedRecording(recording)
        }
        openSurveys.set(venue: id, device: stored.device, recording: nil)
        stored.stoppedAt = stoppedAt
        try await relearnSurvey(venue: id)
        return stored
    }

    /// Deletes recording `recording` with its marks and sightings; a stopped one relearns the venue.
    /// - Throws: ``APIError`` 404 for an unknown venue or recording.
    public func deleteSurveyRecording(venue id: String, recording: Int64) async throws {
        _ = try surveyedVenue(id)
        guard let stored = try await store.surveyRecording(venue: id, id: recording),
            try await store.deleteSurveyRecording(venue: id, id: recording)
        else { throw Self.unknownRecording(recording, venue: id) }
        if stored.isOpen {
            _ = try await openSurveys.open(venue: id, store: store)
            openSurveys.set(venue: id, device: stored.device, recording: nil)
        } else {
            try await relearnSurvey(venue: id)
        }
    }

    /// Replaces `venue`'s whole survey (recorded walks too) by `survey`, a dataset's `train/`, one recording per
    /// device with truth rows, and relearns the venue.
    /// - Returns: The recordings stored.
    /// - Throws: ``APIError``: 404 for an unknown venue; 400 (`truth`) without truth rows, (`sightings`) when the
    ///   survey hears none of the venue's nodes; 413 (`sightings`, `truth`) beyond ``SurveyLimits``.
    public func putSurvey(venue id: String, _ survey: Recording) async throws -> [StoredSurveyRecording] {
        let venue = try surveyedVenue(id)
        let imports = SurveyImport.split(survey)
        guard !imports.isEmpty else {
            throw APIError.badRequest(field: "truth", "the survey has no truth rows: nobody knows where it was made")
        }
        guard survey.hearsAny(of: venue.nodes) else {
            throw APIError.badRequest(
                field: "sightings",
                "the survey hears none of the \(venue.nodes.count) nodes of venue '\(id)': are these the venue's "
                    + "node ids?")
        }
        guard imports.count <= SurveyLimits.maximumRecordings else {
            throw APIError.tooLarge(
                field: "truth",
                "the survey has \(imports.count) devices; a venue keeps \(SurveyLimits.maximumRecordings)")
        }
        for recording in imports {
            if recording.sightings.count > SurveyLimits.maximumSightings {
                throw APIError.tooLarge(
                    field: "sightings",
                    "device '\(recording.device)' has \(recording.sightings.count) sightings; a recording keeps "
                        + "\(SurveyLimits.maximumSightings)")
            }
            if recording.marks.count > SurveyLimits.maximumMarks {
                throw APIError.tooLarge(
                    field: "truth",
                    "device '\(recording.device)' has \(recording.marks.count) truth rows; a recording keeps "
                        + "\(SurveyLimits.maximumMarks)")
            }
        }
        try await store.replaceSurvey(venue: id, with: imports, storedAt: wallClock(), keepingWalks: false)
        openSurveys.forget(venue: id)
        try await relearnSurvey(venue: id)
        return try await store.surveyRecordings(venue: id)
    }

    /// `venue`'s survey as it is learned: its stopped recordings made into one (``SurveyComposition``); `nil` when
    /// it has none.
    /// - Throws: ``APIError`` 404 for an unknown venue; the store's error.
    public func survey(venue id: String) async throws -> Recording? {
        _ = try surveyedVenue(id)
        return try await SurveyComposition.recording(venue: id, store: store)
    }

    /// Reads `venue`'s survey from the store again and relearns the venue from it in the background (where it runs
    /// here); a venue left without a survey goes back to positioning without one.
    func relearnSurvey(venue id: String) async throws {
        let survey = try await SurveyComposition.recording(venue: id, store: store)
        let had = learning.hasSurvey(venue: id)
        learning.update(venue: id, survey: survey)
        guard let runtime = registry.runtime(id), survey != nil || had else { return }
        learning.relearn(runtime)
    }

    /// What the learned survey of `venue` validated (``SurveyValidation``), when it is learned here.
    public func surveyValidation(venue id: String) -> SurveyValidation? {
        registry.runtime(id)?.locked { $0.validation }
    }

    private static func unknownRecording(_ recording: Int64, venue: String) -> APIError {
        APIError.notFound(field: "recording", "venue '\(venue)' has no survey recording \(recording)")
    }

    private static func stoppedRecording(_ recording: Int64) -> APIError {
        APIError(
            status: .conflict, code: "recordingStopped", field: "recording",
            message: "recording \(recording) has stopped: start a new one")
    }

    private static func noMarks(_ recording: Int64) -> APIError {
        APIError.badRequest(
            field: "marks", "recording \(recording) has no mark: mark where the device is first (POST …/marks)",
            code: "noMarks")
    }
}
