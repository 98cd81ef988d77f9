import Foundation
import IndoorGeofencing
import IndoorModel

/// Everything the server keeps: venues, sightings, the events they caused, devices' latest fixes, zone visits,
/// (``AccessStore``) hashed keys and the audit log, and (``WebhookStore``) webhooks.
///
/// The handlers see only this protocol: ``SQLiteStore`` is the embedded database, ``PostgresStore`` a PostgreSQL
/// server. Every method is `async`, so a database round trip waits without blocking a thread; ``commit(_:)``
/// returns only once what it was given is durable (committed), so the server answers a batch after it is stored.
/// Both stores give the same answers to the same calls (ids increase, orders and pages are the same).
public protocol LocationStore: AccessStore, WebhookStore {
    /// The stored venues, as the JSON they were put with, by id.
    func venues() async throws -> [StoredVenue]
    /// One stored venue, or `nil`.
    func venue(id: String) async throws -> StoredVenue?
    /// Creates or replaces a venue.
    /// - Returns: `true` when the venue is new.
    @discardableResult func putVenue(_ venue: StoredVenue) async throws -> Bool
    /// Deletes a venue, its floor images and its devices' latest fixes; its sightings, events and visits stay in the log.
    /// - Returns: `true` when there was such a venue.
    @discardableResult func deleteVenue(id: String) async throws -> Bool

    /// The plan image of `venue`'s floor `level`, or `nil`.
    func floorImage(venue: String, level: Int) async throws -> StoredFloorImage?
    /// Creates or replaces a floor's plan image (its bytes, type and placement).
    /// - Returns: `true` when the floor had no image.
    @discardableResult func putFloorImage(_ image: StoredFloorImage) async throws -> Bool
    /// Deletes a floor's plan image.
    /// - Returns: `true` when there was one.
    @discardableResult func deleteFloorImage(venue: String, level: Int) async throws -> Bool

    /// Stores `batches` in one transaction, in their order (one fsync and one commit lock for all: how a venue's
    /// waiting batches are committed together): each batch's sightings, the fixes and zone events they caused, the
    /// devices' latest fixes and the zone visits. All are committed or none. Returns after the transaction is
    /// committed; waits for the database without blocking a thread.
    /// - Returns: Each batch's events with the ids they were stored under, in the order given.
    func commit(batches: [IngestBatch]) async throws -> [[StoredEvent]]

    /// The latest fix of `device` in `venue`, or `nil`.
    func latestFix(venue: String, device: String) async throws -> Fix?
    /// The latest fix of every device of `venue` whose fix is at or after `since` (data time, seconds).
    func devices(venue: String, since: Double) async throws -> [Fix]
    /// Zone visits matching `query`, newest first, one page.
    func visits(_ query: VisitQuery) async throws -> VisitPage
    /// The events of `venue` stored after id `after`, oldest first, at most `limit`.
    func events(venue: String, after: Int64, limit: Int) async throws -> [StoredEvent]
    /// The id of the newest stored event (of any venue), 0 when there is none.
    func latestEventID() async throws -> Int64
    /// How many sightings are stored for `venue`.
    func sightingCount(venue: String) async throws -> Int
    /// `venue`'s latest stored sightings: those at most `seconds` of data time before its latest one, at most `limit`
    /// of them (the latest), in time order (then the order they were stored), each with when it was received (Unix
    /// seconds). What a restarted server replays to rebuild the venue's session.
    func recentSightings(venue: String, seconds: Double, limit: Int) async throws -> [ReceivedSighting]

    // MARK: History and reports (docs/SERVER.md)

    /// One page of `query.venue`'s stored fixes with data times in `query.from ..< query.to`, in the order of
    /// ``FixHistoryPosition`` (data time, then device compared byte by byte, then id), at most `query.limit`, after
    /// `query.after`; each fix's JSON as stored (the same bytes from both stores).
    func fixHistory(_ query: FixHistoryQuery) async throws -> FixHistoryPage
    /// Each device's latest stored fix of `venue` at or before data time `at` and after `at - window` (seconds), by
    /// device (compared byte by byte); only `device`'s when it is given. What a history scrubber shows at `at`.
    func fixes(venue: String, at: Double, window: Double, device: String?) async throws -> [HistoryFix]
    /// `query.venue`'s visits counted per zone and bucket in SQL, with the dwells for percentiles
    /// (``ZoneReportData``).
    func zoneReport(_ query: ZoneReportQuery) async throws -> ZoneReportData

    /// Answers when the database can be read (for `/health`); throws otherwise.
    func ping() async throws

    /// What kind of database this is (`sqlite` or `postgres`), for `/health`.
    var kind: String { get }

    /// Deletes sightings received before `receivedBefore` (Unix seconds), at most `limit` of them, oldest first; the
    /// events, visits and fixes they caused stay.
    /// - Returns: How many were deleted (fewer than `limit`: none older is left).
    func pruneSightings(receivedBefore: Double, limit: Int) async throws -> Int
    /// Deletes fixes and zone events stored before `storedBefore` (Unix seconds), at most `limit`, oldest first; the
    /// visits and devices' latest fixes stay. A stream resuming from a deleted event's id carries on after it.
    /// - Returns: How many were deleted (fewer than `limit`: none older is left).
    func pruneEvents(storedBefore: Double, limit: Int) async throws -> Int
    /// Deletes visits whose check-out was stored before `closedBefore` (Unix seconds), at most `limit`, oldest first;
    /// open visits are never deleted.
    /// - Returns: How many were deleted (fewer than `limit`: none older is left).
    func pruneVisits(closedBefore: Double, limit: Int) async throws -> Int

    /// How big the store is and how far back its sightings go.
    func storage() async throws -> StoreStorage

    // MARK: A person's data (docs/PRIVACY.md)

    /// Deletes every stored row that names `device`, in `venue` only or (`nil`) in every venue: its sightings, fixes
    /// and zone events, latest fixes and visits, in one transaction. SQLite overwrites the deleted rows
    /// (`secure_delete`), so they do not linger in the file's free pages.
    /// - Returns: How many rows of each kind were deleted.
    func eraseDevice(_ device: String, venue: String?) async throws -> DataCounts
    /// One page of `query.device`'s rows of one table, across venues, in id order (``DeviceRecordQuery``).
    func deviceRecords(_ query: DeviceRecordQuery) async throws -> [DeviceRecord]
    /// Deletes every stored row of venue `id` (sightings, events, latest fixes, visits) in one transaction; the venue
    /// itself and its floor images are ``deleteVenue(id:)``'s.
    /// - Returns: How many rows of each kind were deleted.
    func purgeVenueData(id: String) async throws -> DataCounts
    /// Closes the open visits with these ids as `lost`: checked out at `checkOut` seconds of data time (each at its
    /// own check-in when `nil`), without a departure or dwell (nobody knows when the device left), stamped as closed
    /// at `closedAt` (Unix seconds, for retention). A visit closed meanwhile is left as it is.
    /// - Returns: How many were closed.
    func closeVisits(ids: [Int64], checkOut: Double?, closedAt: Double) async throws -> Int
    /// The secret stored under `name`; when there is none yet, `candidate` is stored and returned (a secret is made
    /// once and kept: several instances starting at once all get the one stored first). Used for the devices'
    /// pseudonyms (``DevicePseudonyms``).
    func serverSecret(named name: String, orNew candidate: Data) async throws -> Data
    /// Deletes the devices' latest fixes older than their venue's oldest stored event (all of a venue's when it has
    /// none left): a latest fix expires with the events' retention.
    /// - Returns: The devices whose latest fix was deleted, with their venue.
    func pruneLatestFixes() async throws -> [ExpiredDevice]

    // MARK: Site surveys (docs/SURVEY.md)

    /// `venue`'s survey recordings with their marks, oldest first. The survey's rows are kept whatever the retention
    /// of sightings; ``deleteVenue(id:)`` deletes them, and ``eraseDevice(_:venue:)`` a device's recordings.
    func surveyRecordings(venue: String) async throws -> [StoredSurveyRecording]
    /// One recording of `venue`'s survey with its marks, or `nil`.
    func surveyRecording(venue: String, id: Int64) async throws -> StoredSurveyRecording?
    /// Starts a recording of `device` in `venue`'s survey at `startedAt` (Unix seconds).
    /// - Returns: Its id.
    func startSurveyRecording(venue: String, device: String, startedAt: Double) async throws -> Int64
    /// Appends `mark` to the open recording `recording` of `venue`, when its time is at or after the end of the
    /// recording's last mark (its time plus its hold) and the recording has fewer than
    /// ``SurveyLimits/maximumMarks``; checked and written in one transaction.
    /// - Returns: `nil` when it was appended; else why not: ``SurveyMarkRefusal``.
    func addSurveyMark(_ mark: SurveyMark, venue: String, recording: Int64) async throws -> SurveyMarkRefusal?
    /// Stops the open recording `id` of `venue` at `stoppedAt` (Unix seconds), when it has a mark.
    /// - Returns: `nil` when it was stopped; else why not (no such open recording, no mark).
    func stopSurveyRecording(venue: String, id: Int64, stoppedAt: Double) async throws -> SurveyMarkRefusal?
    /// Deletes the recording `id` of `venue` with its marks and sightings.
    /// - Returns: Whether there was one.
    func deleteSurveyRecording(venue: String, id: Int64) async throws -> Bool
    /// Keeps a copy of `sightings` (its device's, as ingested) with the open recording `recording`, up to
    /// ``SurveyLimits/maximumSightings`` in all; the rest are counted as dropped. Nothing once it has stopped.
    /// - Returns: How many were kept.
    @discardableResult func addSurveySightings(_ sightings: [Sighting], recording: Int64) async throws -> Int
    /// The sightings kept with recording `recording`, in the order kept, each named by the recording's device.
    func surveySightings(recording: Int64) async throws -> [Sighting]
    /// Replaces `venue`'s survey by `recordings` (imports, stopped at `storedAt`, Unix seconds), in one transaction:
    /// all of them or none is stored. With `keepingWalks`, only the venue's imported recordings are replaced and
    /// those recorded walking stay (what `indoor serve --survey` does at each start).
    /// - Returns: The new recordings' ids, in the order given.
    @discardableResult func replaceSurvey(
        venue: String, with recordings: [SurveyImport], storedAt: Double, keepingWalks: Bool
    ) async throws -> [Int64]
}

/// Why the store did not take a survey mark or stop.
public enum SurveyMarkRefusal: Hashable, Sendable {
    /// There is no such recording of the venue.
    case unknown
    /// The recording has stopped.
    case stopped
    /// The mark is before the end of the recording's last mark, seconds.
    case beforeLast(Double)
    /// The recording has ``SurveyLimits/maximumMarks`` marks.
    case full
    /// The recording has no mark (a stop).
    case noMarks
}

extension LocationStore {
    /// Stores one batch in one transaction (``commit(batches:)`` of it alone).
    /// - Returns: The events with the ids they were stored under, in the order given.
    public func commit(_ batch: IngestBatch) async throws -> [StoredEvent] {
        guard let stored = try await commit(batches: [batch]).first else {
            throw StoreError("the store answered no events for the batch it committed")
        }
        return stored
    }
}

/// How big a store is, for `/health` and `/metrics`.
public struct StoreStorage: Hashable, Sendable, Encodable {
    /// The database's size, bytes (its main file; the write-ahead log comes and goes).
    public var bytes: Int
    /// When the oldest stored sighting was received, Unix seconds; `nil` with none stored.
    public var oldestSighting: Double?
    /// When the oldest stored event was stored, Unix seconds; `nil` with none stored.
    public var oldestEvent: Double?
    /// When the oldest stored closed visit was checked out, Unix seconds; `nil` with none stored.
    public var oldestVisit: Double?

    public init(bytes: Int, oldestSighting: Double?, oldestEvent: Double? = nil, oldestVisit: Double? = nil) {
        self.bytes = bytes
        self.oldestSighting = oldestSighting
        self.oldestEvent = oldestEvent
        self.oldestVisit = oldestVisit
    }
}

/// A venue as stored: its id and the venue JSON of docs/FORMATS.md.
public struct StoredVenue: Hashable, Sendable {
    /// The venue's id.
    public var id: String
    /// The venue JSON (pretty-printed, sorted keys).
    public var json: Data

    /// A stored venue.
    public init(id: String, json: Data) {
        self.id = id
        self.json = json
    }
}

/// What one ingest call stores, in one transaction.
public struct IngestBatch: Sendable {
    /// The venue the sightings are for.
    public var venue: String
    /// The sightings that were accepted.
    public var sightings: [Sighting]
    /// The fixes and zone events they caused, in time order.
    public var events: [ServerEvent]
    /// Wall-clock time of arrival, seconds since 1970 (kept beside each sighting).
    public var receivedAt: Double
    /// In a cluster, the lease the batch was made under: a ``ClusterStore`` commits it only while that lease is still
    /// the venue's (throwing ``LeaseLostError`` otherwise); `nil` for one server alone.
    public var lease: VenueLease?
    /// Each event's JSON (``ServerEvent/json(_:)``), in the order of `events`, when the caller has it already (the
    /// server answers with the same bytes); `nil`: the store encodes the events.
    public var eventJSON: [Data]?

    /// A batch for `venue`.
    public init(
        venue: String, sightings: [Sighting], events: [ServerEvent], receivedAt: Double, lease: VenueLease? = nil,
        eventJSON: [Data]? = nil
    ) {
        self.venue = venue
        self.sightings = sightings
        self.events = events
        self.receivedAt = receivedAt
        self.lease = lease
        self.eventJSON = eventJSON
    }

    /// Each event's JSON: ``eventJSON``, or the events encoded now.
    /// - Throws: The encoder's error.
    package func encodedEvents() throws -> [Data] {
        if let eventJSON, eventJSON.count == events.count { return eventJSON }
        let encoder = JSONFormat.encoder()
        return try events.map { try $0.json(encoder) }
    }
}

/// An event the server keeps and streams: a fix, a zone event, a zone's occupancy changed, or a person's check-in or
/// check-out.
public enum ServerEvent: Hashable, Sendable {
    /// A position of a device.
    case fix(Fix)
    /// A check-in, check-out or dwell.
    case zone(ZoneEvent)
    /// A zone became occupied or empty, or its count changed (``OccupancyEvent``); stored right after the zone event
    /// that caused it, in the same transaction.
    case occupancy(OccupancyEvent)
    /// A person came into a zone or left it (``PersonZoneEvent``); stored right after the device's zone event that
    /// caused it, in the same transaction.
    case person(PersonZoneEvent)

    /// `fix`, `zone`, `occupancy` or `person`: the kind the stores keep each event under (their `type` column), and the stream's
    /// `event:`.
    public var type: String {
        switch self {
        case .fix: "fix"
        case .zone: "zone"
        case .occupancy: "occupancy"
        case .person: "person"
        }
    }

    /// Data time, seconds.
    public var time: Double {
        switch self {
        case .fix(let fix): fix.time
        case .zone(let event): event.time
        case .occupancy(let event): event.time
        case .person(let event): event.time
        }
    }

    /// The device the event is about; empty for an occupancy event, which names no device (so an erasure of a
    /// device leaves it: it holds a count, not the device). A person's event is about the device whose zone event
    /// made it, so an erasure of that device takes it.
    public var device: String {
        switch self {
        case .fix(let fix): fix.device
        case .zone(let event): event.device
        case .occupancy: ""
        case .person(let event): event.device
        }
    }
    /// The event's JSON, as the stores keep it and the API answers it (`encoder` is ``JSONFormat/encoder(pretty:)``):
    /// a fix written directly where ``FixJSON`` can (the same bytes), anything else by `encoder`.
    /// - Throws: The encoder's error (a number that is not finite).
    package func json(_ encoder: JSONEncoder) throws -> Data {
        switch self {
        case .fix(let fix): try FixJSON.json(fix) ?? encoder.encode(fix)
        case .zone(let event): try encoder.encode(event)
        case .occupancy(let event): try encoder.encode(event)
        case .person(let event): try encoder.encode(event)
        }
    }

    /// The event stored as `type` (``type``) with `json`.
    /// - Throws: `decoder`'s error when `json` is not an event of that type.
    package static func decode(type: String, json: Data, decoder: JSONDecoder) throws -> ServerEvent {
        switch type {
        case "fix": .fix(try decoder.decode(Fix.self, from: json))
        case "occupancy": .occupancy(try decoder.decode(OccupancyEvent.self, from: json))
        case "person": .person(try decoder.decode(PersonZoneEvent.self, from: json))
        default: .zone(try decoder.decode(ZoneEvent.self, from: json))
        }
    }
}

/// An event with the id it is stored under (the Server-Sent Events id).
public struct StoredEvent: Hashable, Sendable {
    /// Increasing id, never reused.
    public var id: Int64
    /// The venue.
    public var venue: String
    /// The event.
    public var event: ServerEvent

    /// A stored event.
    public init(id: Int64, venue: String, event: ServerEvent) {
        self.id = id
        self.venue = venue
        self.event = event
    }
}

/// A filter over the zone visits.
public struct VisitQuery: Hashable, Sendable {
    /// The venue (required).
    public var venue: String
    /// Only this zone.
    public var zone: String?
    /// Only this device.
    public var device: String?
    /// Only visits still open at or after this data time (seconds).
    public var from: Double?
    /// Only visits that began before this data time (seconds).
    public var to: Double?
    /// Page size.
    public var limit: Int
    /// Only visits older than this visit id (from the previous page's cursor).
    public var before: Int64?
    /// Only visits still open (checked in, not yet checked out): what a restarted server resumes.
    public var openOnly: Bool

    /// A query over `venue`'s visits.
    public init(
        venue: String, zone: String? = nil, device: String? = nil, from: Double? = nil, to: Double? = nil,
        limit: Int = 100, before: Int64? = nil, openOnly: Bool = false
    ) {
        self.venue = venue
        self.zone = zone
        self.device = device
        self.from = from
        self.to = to
        self.limit = limit
        self.before = before
        self.openOnly = openOnly
    }
}

/// One page of zone visits.
public struct VisitPage: Hashable, Sendable {
    /// The visits, newest first.
    public var visits: [Visit]
    /// The id to continue after, when there may be more.
    public var nextBefore: Int64?

    /// A page.
    public init(visits: [Visit], nextBefore: Int64?) {
        self.visits = visits
        self.nextBefore = nextBefore
    }
}

/// A zone visit: check-in, and check-out with the dwell time once it ended.
public struct Visit: Hashable, Sendable, Codable {
    /// The visit's id.
    public var id: Int64
    /// The venue.
    public var venue: String
    /// The zone's id and name.
    public var zone: String
    /// The zone's name.
    public var zoneName: String
    /// The device.
    public var device: String
    /// What checked the device in: `fence`, `beacon` or `geoline`.
    public var trigger: String
    /// Check-in time, seconds (data time).
    public var checkIn: Double
    /// Check-out time, seconds, when the visit has ended.
    public var checkOut: Double?
    /// When the device was last inside, seconds, once checked out.
    public var departure: Double?
    /// Seconds inside, once checked out.
    public var dwell: Double?
    /// `left` or `lost`, once checked out; `crossing` for a check-in that has no check-out (a geoline).
    public var reason: String?
}
