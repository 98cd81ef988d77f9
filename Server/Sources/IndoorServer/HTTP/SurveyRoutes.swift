import Foundation
import HTTPTypes
import Hummingbird
import IndoorArchive
import IndoorModel
import NIOCore

/// A venue's site survey, with an admin key (docs/SURVEY.md): recordings started, marked and stopped while walking,
/// listed with their coverage, deleted; the whole survey put from a dataset's `train/` and exported as one.
///
/// In a cluster any instance takes the calls and sends them to the venue's owner, which keeps the recordings' sightings
/// and relearns the venue.
struct SurveyRoutes: RouteArea {
    let server: LocationServer

    /// The body of `POST …/survey/recordings`.
    struct StartRequest: Decodable {
        var device: String
    }

    /// The body of `POST …/recordings/{recording}/marks`.
    struct MarkRequest: Decodable {
        var x: Double
        var y: Double
        var floor: Int?
        var t: Double?
        var hold: Double?
    }

    /// A mark as answered.
    struct MarkAnswer: Encodable {
        /// Seconds on the sightings' clock.
        var t: Double
        /// Metres in the venue's local frame.
        var x: Double
        var y: Double
        var floor: Int?
        /// Seconds the device stood there.
        var hold: Double

        init(_ mark: SurveyMark) {
            t = mark.time
            x = mark.point.x
            y = mark.point.y
            floor = mark.floor
            hold = mark.hold
        }
    }

    /// A recording as answered.
    struct RecordingAnswer: Encodable {
        var id: Int64
        var device: String
        /// `walk` (recorded through the API) or `imported` (put from a dataset).
        var source: StoredSurveyRecording.Source
        /// Unix seconds.
        var startedAt: Double
        var stoppedAt: Double?
        /// Whether it still takes marks and the device's sightings.
        var running: Bool
        var marks: [MarkAnswer]
        /// The device's sightings kept with it.
        var sightings: Int
        /// Its sightings beyond the most a recording keeps.
        var droppedSightings: Int

        init(_ recording: StoredSurveyRecording) {
            id = recording.id
            device = recording.device
            source = recording.source
            startedAt = recording.startedAt
            stoppedAt = recording.stoppedAt
            running = recording.isOpen
            marks = recording.marks.map(MarkAnswer.init)
            sightings = recording.sightings
            droppedSightings = recording.droppedSightings
        }
    }

    /// The answer of `GET /v1/venues/{venue}/survey` (and of its `PUT`).
    struct SurveyAnswer: Encodable {
        var venue: String
        /// How far the venue's survey is learned (as `GET /v1/venues` says).
        var state: SurveyState
        /// What the learned survey validated; absent until it is learned.
        var validation: SurveyValidation?
        var recordings: [RecordingAnswer]
        /// The sightings kept with every recording.
        var sightings: Int
        /// The truth rows the marks give (a walk's every half second).
        var truthRows: Int
        /// Where the truth went, by 2 m cell.
        var coverage: SurveyComposition.Coverage
    }

    func collection() -> RouteCollection<IndoorRequestContext> {
        let routes = RouteCollection(context: IndoorRequestContext.self)
        let admin = group(of: routes, needing: .admin)
        admin.get("/v1/venues/{venue}/survey") { request, context in try await survey(request, context: context) }
        admin.put("/v1/venues/{venue}/survey") { request, context in try await putSurvey(request, context: context) }
        admin.get("/v1/venues/{venue}/survey/export") { request, context in
            try await export(request, context: context)
        }
        admin.post("/v1/venues/{venue}/survey/recordings") { request, context in
            try await start(request, context: context)
        }
        admin.delete("/v1/venues/{venue}/survey/recordings/{recording}") { request, context in
            try await delete(request, context: context)
        }
        admin.post("/v1/venues/{venue}/survey/recordings/{recording}/marks") { request, context in
            try await mark(request, context: context)
        }
        admin.post("/v1/venues/{venue}/survey/recordings/{recording}/stop") { request, context in
            try await stop(request, context: context)
        }
        return routes
    }

    /// The recording id of the route.
    private func recording(_ context: some RequestContext) throws -> Int64 {
        let text = try context.parameters.require("recording")
        guard let id = Int64(text), id > 0 else {
            throw APIError.badRequest(field: "recording", "recording '\(text)' is not a recording id (an integer)")
        }
        return id
    }

    /// `GET …/survey`: the recordings with their marks, the sightings kept, the coverage, and how far it is learned.
    func survey(_ request: Request, context: IndoorRequestContext) async throws -> Response {
        let venue = try context.parameters.require("venue")
        if let elsewhere = try await forwarder.answerElsewhere(request, context, venue: venue) { return elsewhere }
        return try JSONResponse(try await answer(venue: venue)).response(from: request, context: context)
    }

    /// What `GET …/survey` answers for `venue`.
    private func answer(venue: String) async throws -> SurveyAnswer {
        guard hub.venue(id: venue) != nil else { throw APIError.unknownVenue(venue) }
        let recordings = try await store.surveyRecordings(venue: venue)
        let truth = recordings.flatMap { $0.truth(step: SurveyComposition.step) }
        return SurveyAnswer(
            venue: venue, state: hub.surveyState(venue: venue), validation: hub.surveyValidation(venue: venue),
            recordings: recordings.map(RecordingAnswer.init), sightings: recordings.reduce(0) { $0 + $1.sightings },
            truthRows: truth.count, coverage: SurveyComposition.coverage(truth))
    }

    /// `PUT …/survey`: replaces the venue's whole survey by a dataset's `train/` (``SurveyUpload``); answered as
    /// `GET …/survey` (its state `learning`).
    func putSurvey(_ request: Request, context: IndoorRequestContext) async throws -> Response {
        let venue = try context.parameters.require("venue")
        let body = try await request.bodyBytes(limit: SurveyUpload.maximumBytes)
        if let elsewhere = try await forwarder.answerElsewhere(request, context, venue: venue, body: body) {
            return elsewhere
        }
        let survey = try SurveyUpload.survey(body: Data(buffer: body), contentType: request.headers[.contentType])
        _ = try await hub.putSurvey(venue: venue, survey)
        return try JSONResponse(try await answer(venue: venue)).response(from: request, context: context)
    }

    /// `GET …/survey/export`: the survey as learned, as a dataset folder in a zip (`nodes.csv`, `train/sightings.csv`,
    /// `train/truth.csv`).
    func export(_ request: Request, context: IndoorRequestContext) async throws -> Response {
        let id = try context.parameters.require("venue")
        if let elsewhere = try await forwarder.answerElsewhere(request, context, venue: id) { return elsewhere }
        guard let venue = hub.venue(id: id) else { throw APIError.unknownVenue(id) }
        guard let survey = try await hub.survey(venue: id) else {
            throw APIError.notFound(field: "survey", "venue '\(id)' has no survey with a stopped recording yet")
        }
        let zip = try ZipWriter.archive(SurveyComposition.datasetFiles(survey, nodes: venue.nodes))
        return BytesResponse(
            zip, type: "application/zip",
            headers: [.contentDisposition: "attachment; filename=\"\(Self.fileName(id))-survey.zip\""]
        ).response(from: request, context: context)
    }

    /// `id` as a file name: letters, digits, `-`, `_` and `.` kept, anything else `_`.
    static func fileName(_ id: String) -> String {
        String(id.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "_" })
    }

    /// `POST …/survey/recordings` `{"device"}`: 201 with the recording (`id`, `startedAt`).
    func start(_ request: Request, context: IndoorRequestContext) async throws -> Response {
        let venue = try context.parameters.require("venue")
        let body = try await request.bodyBytes(limit: configuration.maxBodyBytes)
        if let elsewhere = try await forwarder.answerElsewhere(request, context, venue: venue, body: body) {
            return elsewhere
        }
        let wanted = try decodeBody(StartRequest.self, from: Data(buffer: body))
        let recording = try await hub.startSurveyRecording(venue: venue, device: wanted.device)
        return try JSONResponse(RecordingAnswer(recording), status: .created).response(from: request, context: context)
    }

    /// `POST …/recordings/{recording}/marks` `{"x", "y", "floor"?, "t"?, "hold"?}`: 201 with the mark as stored.
    func mark(_ request: Request, context: IndoorRequestContext) async throws -> Response {
        let venue = try context.parameters.require("venue")
        let id = try recording(context)
        let body = try await request.bodyBytes(limit: configuration.maxBodyBytes)
        if let elsewhere = try await forwarder.answerElsewhere(request, context, venue: venue, body: body) {
            return elsewhere
        }
        let wanted = try decodeBody(MarkRequest.self, from: Data(buffer: body))
        let mark = try await hub.markSurvey(
            venue: venue, recording: id,
            VenueHub.SurveyMarkRequest(
                x: wanted.x, y: wanted.y, floor: wanted.floor, time: wanted.t, hold: wanted.hold ?? 0))
        return try JSONResponse(MarkAnswer(mark), status: .created).response(from: request, context: context)
    }

    /// `POST …/recordings/{recording}/stop`: the recording, stopped; the venue relearns in the background.
    func stop(_ request: Request, context: IndoorRequestContext) async throws -> Response {
        let venue = try context.parameters.require("venue")
        let id = try recording(context)
        if let elsewhere = try await forwarder.answerElsewhere(request, context, venue: venue) { return elsewhere }
        let stopped = try await hub.stopSurveyRecording(venue: venue, recording: id)
        return try JSONResponse(RecordingAnswer(stopped)).response(from: request, context: context)
    }

    /// `DELETE …/recordings/{recording}`: 204; a stopped recording relearns the venue.
    func delete(_ request: Request, context: IndoorRequestContext) async throws -> Response {
        let venue = try context.parameters.require("venue")
        let id = try recording(context)
        if let elsewhere = try await forwarder.answerElsewhere(request, context, venue: venue) { return elsewhere }
        try await hub.deleteSurveyRecording(venue: venue, recording: id)
        return Response(status: .noContent)
    }
}
