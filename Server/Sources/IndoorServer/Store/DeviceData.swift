import Foundation

/// How many rows of each kind an erasure or a purge deleted (docs/PRIVACY.md).
public struct DataCounts: Hashable, Sendable, Codable {
    /// Stored sightings (the `sighting` table).
    public var sightings: Int
    /// Stored fixes and zone events (the `event` table).
    public var events: Int
    /// Devices' latest fixes (the `device` table: one per device and venue).
    public var latestFixes: Int
    /// Zone visits (the `visit` table).
    public var visits: Int
    /// Site survey recordings of the device, each with its marks and its copy of the device's sightings
    /// (docs/SURVEY.md); 0 where the answer predates surveys.
    public var surveyRecordings: Int

    /// Counts of deleted rows; none by default.
    public init(sightings: Int = 0, events: Int = 0, latestFixes: Int = 0, visits: Int = 0, surveyRecordings: Int = 0) {
        self.sightings = sightings
        self.events = events
        self.latestFixes = latestFixes
        self.visits = visits
        self.surveyRecordings = surveyRecordings
    }

    private enum CodingKeys: String, CodingKey { case sightings, events, latestFixes, visits, surveyRecordings }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sightings = try container.decode(Int.self, forKey: .sightings)
        events = try container.decode(Int.self, forKey: .events)
        latestFixes = try container.decode(Int.self, forKey: .latestFixes)
        visits = try container.decode(Int.self, forKey: .visits)
        surveyRecordings = try container.decodeIfPresent(Int.self, forKey: .surveyRecordings) ?? 0
    }

    /// Every kind's count added up.
    public var total: Int { sightings + events + latestFixes + visits + surveyRecordings }

    /// The counts of `self` and `other` added kind by kind.
    public static func + (lhs: DataCounts, rhs: DataCounts) -> DataCounts {
        DataCounts(
            sightings: lhs.sightings + rhs.sightings, events: lhs.events + rhs.events,
            latestFixes: lhs.latestFixes + rhs.latestFixes, visits: lhs.visits + rhs.visits,
            surveyRecordings: lhs.surveyRecordings + rhs.surveyRecordings)
    }
}

/// One kind of a device's stored data, in the order an export gives them.
public enum DeviceRecordKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// The device's latest fix in each venue (the `device` table).
    case latest
    /// A stored sighting of the device.
    case sighting
    /// A stored fix (the `event` table, type `fix`).
    case fix
    /// A stored zone event: check-in, check-out, dwell (the `event` table, type `zone`).
    case event
    /// A zone visit.
    case visit
    /// A site survey recording of the device carried (docs/SURVEY.md): its source, times and marks.
    case surveyRecording
    /// A sighting of the device kept with a site survey recording (the recording's id in `recording`).
    case surveySighting
}

/// One stored row about a device, as an export line gives it.
public struct DeviceRecord: Hashable, Sendable {
    /// What the row is.
    public var kind: DeviceRecordKind
    /// The row's id in its table (increasing); 0 for a latest fix, which has none.
    public var id: Int64
    /// The venue.
    public var venue: String
    /// The row as JSON: a sighting's fields, a fix, a zone event, a visit (docs/PRIVACY.md).
    public var json: Data

    public init(kind: DeviceRecordKind, id: Int64, venue: String, json: Data) {
        self.kind = kind
        self.id = id
        self.venue = venue
        self.json = json
    }
}

/// Which rows of one device to read, of one table, one page at a time.
public struct DeviceRecordQuery: Hashable, Sendable {
    /// The device.
    public var device: String
    /// The table: ``DeviceRecordKind/fix`` and ``DeviceRecordKind/event`` are both read from the events, so either
    /// reads both (each row with its own kind).
    public var kind: DeviceRecordKind
    /// Only rows at or after this data time, seconds (a visit: still open at or after it).
    public var from: Double?
    /// Only rows before this data time, seconds (a visit: begun before it).
    public var to: Double?
    /// Only rows with an id above this one (the previous page's last); latest fixes come in one page.
    public var after: Int64
    /// The most rows.
    public var limit: Int

    public init(
        device: String, kind: DeviceRecordKind, from: Double? = nil, to: Double? = nil, after: Int64 = 0,
        limit: Int = 1000
    ) {
        self.device = device
        self.kind = kind
        self.from = from
        self.to = to
        self.after = after
        self.limit = limit
    }
}

/// A stored sighting as an export line's `data` gives it (the columns of the `sighting` table).
/// A survey recording as an export line gives it (``DeviceRecordKind/surveyRecording``).
struct ExportedSurveyRecording: Encodable {
    /// A mark: the device at (`x`, `y`) metres on `floor` at `t` seconds, standing there `hold` seconds.
    struct Mark: Encodable {
        var t: Double
        var x: Double
        var y: Double
        var floor: Int?
        var hold: Double
    }

    var device: String
    /// `walk` or `imported`.
    var source: String
    /// Unix seconds.
    var startedAt: Double
    var stoppedAt: Double?
    var marks: [Mark]
}

/// A sighting kept with a survey recording, as an export line gives it (``DeviceRecordKind/surveySighting``).
struct ExportedSurveySighting: Encodable {
    /// The recording's id.
    var recording: Int64
    var t: Double
    var node: String?
    var beacon: String?
    var rssi: Double
    var tx: Double?
}

struct ExportedSighting: Encodable {
    var t: Double
    var device: String
    var node: String?
    var beacon: String?
    var rssi: Double
    var tx: Double?
    /// When the server received it, Unix seconds.
    var receivedAt: Double
}
