import Foundation
import IndoorModel

/// One recording of a venue's site survey as the store keeps it (docs/SURVEY.md): the device carried, the marks of
/// where it was, and how many of its sightings were copied while the recording ran. The sightings themselves are
/// read with ``LocationStore/surveySightings(recording:)``.
public struct StoredSurveyRecording: Hashable, Sendable {
    /// How a recording came to be, which says what its marks mean.
    public enum Source: String, Hashable, Sendable, Codable {
        /// Recorded through the API while walking: marks tapped at turns and doorways, the truth interpolated
        /// between them at constant speed (``IndoorModel/SurveyMark/truth(device:marks:step:)``).
        case walk
        /// Imported from a dataset's `train/` (`PUT /v1/venues/{id}/survey`, `indoor serve --survey`): each mark is
        /// one of its truth rows, taken as it is.
        case imported
    }

    /// The recording's id (increasing, never reused).
    public var id: Int64
    /// The venue surveyed.
    public var venue: String
    /// The device carried, as the server stores it (after pseudonyms).
    public var device: String
    /// What its marks mean.
    public var source: Source
    /// When it started, Unix seconds (the server's clock).
    public var startedAt: Double
    /// When it stopped, Unix seconds; `nil` while it runs (an import is stopped when stored).
    public var stoppedAt: Double?
    /// Its marks, in time order (seconds on the sightings' clock).
    public var marks: [SurveyMark]
    /// How many of the device's sightings are kept with it.
    public var sightings: Int
    /// How many were not kept, beyond ``SurveyLimits/maximumSightings``.
    public var droppedSightings: Int

    /// A stored recording.
    public init(
        id: Int64, venue: String, device: String, source: Source, startedAt: Double, stoppedAt: Double?,
        marks: [SurveyMark], sightings: Int, droppedSightings: Int
    ) {
        self.id = id
        self.venue = venue
        self.device = device
        self.source = source
        self.startedAt = startedAt
        self.stoppedAt = stoppedAt
        self.marks = marks
        self.sightings = sightings
        self.droppedSightings = droppedSightings
    }

    /// Whether the recording still takes marks and sightings.
    public var isOpen: Bool { stoppedAt == nil }

    /// The truth rows its marks give: a walk's interpolated every `step` seconds, an import's as they are.
    public func truth(step: Double = 0.5) -> [TruthPoint] {
        switch source {
        case .walk: SurveyMark.truth(device: device, marks: marks, step: step)
        case .imported:
            marks.map { TruthPoint(time: $0.time, device: device, point: $0.point, floor: $0.floor) }
        }
    }

    /// The span of data time its truth covers, seconds: from the first mark to the end of the last one's hold.
    public var span: ClosedRange<Double>? {
        guard let first = marks.first, let last = marks.last, last.time + last.hold >= first.time else { return nil }
        return first.time...(last.time + last.hold)
    }
}

/// A survey recording stored whole (an import): the device, its marks (truth rows) and its sightings.
public struct SurveyImport: Hashable, Sendable {
    /// The device, as its sightings and truth rows name it.
    public var device: String
    /// Its truth rows as marks, in time order.
    public var marks: [SurveyMark]
    /// Its sightings, in time order.
    public var sightings: [Sighting]

    public init(device: String, marks: [SurveyMark], sightings: [Sighting]) {
        self.device = device
        self.marks = marks
        self.sightings = sightings
    }

    /// `recording` split by device, one import per device with truth rows (sightings of devices without truth are
    /// left out: nobody knows where they were), devices in sorted order.
    public static func split(_ recording: Recording) -> [SurveyImport] {
        let truth = Dictionary(grouping: recording.truth, by: \.device)
        let sightings = Dictionary(grouping: recording.sightings, by: \.device)
        return truth.keys.sorted().compactMap { device in
            let rows = (truth[device] ?? []).filter { $0.time.isFinite }.sorted { $0.time < $1.time }
            guard !rows.isEmpty else { return nil }
            return SurveyImport(
                device: device,
                marks: rows.map { SurveyMark(time: $0.time, point: $0.point, floor: $0.floor) },
                sightings: (sightings[device] ?? []).sorted { $0.time < $1.time })
        }
    }
}

/// How big a survey may grow: the bounds that keep a forgotten recording from filling the disk.
public enum SurveyLimits {
    /// The most sightings kept with one recording (about three hours of ten nodes heard five times a second, as
    /// `SurveyRecorder`); the rest are counted as dropped.
    public static let maximumSightings = 500_000
    /// The most marks of one recording (an import's truth rows are its marks).
    public static let maximumMarks = 200_000
    /// The most recordings of one venue.
    public static let maximumRecordings = 1000
}
