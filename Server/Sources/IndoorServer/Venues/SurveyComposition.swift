import Foundation
import IndoorModel

/// A venue's stored survey recordings made into the one survey its session learns from and `GET …/survey/export`
/// hands out, and the coverage `GET …/survey` reports.
enum SurveyComposition {
    /// The seconds between interpolated truth rows of a walk (``IndoorModel/SurveyMark/truth(device:marks:step:)``).
    static let step = 0.5
    /// The side of a coverage cell, metres.
    static let cellMeters = 2.0

    /// The survey of the stopped recordings among `recordings` (each with its sightings): their truth rows, and the
    /// sightings of each walk within its marks' span (where the truth is known; an import's all of them), in time
    /// order. `nil` when no stopped recording has a mark.
    static func recording(_ recordings: [(recording: StoredSurveyRecording, sightings: [Sighting])]) -> Recording? {
        var sightings: [Sighting] = []
        var truth: [TruthPoint] = []
        for (recording, heard) in recordings where !recording.isOpen {
            guard let span = recording.span else { continue }
            truth += recording.truth(step: step)
            sightings += recording.source == .imported ? heard : heard.filter { span.contains($0.time) }
        }
        guard !truth.isEmpty else { return nil }
        // Stable: sightings of one time keep the order they were heard in.
        let ordered = sightings.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
        return Recording(sightings: ordered.map(\.element), truth: truth)
    }

    /// `venue`'s survey read from `store` (``recording(_:)``), or `nil` when it has none.
    /// - Throws: The store's error.
    static func recording(venue: String, store: any LocationStore) async throws -> Recording? {
        var read: [(recording: StoredSurveyRecording, sightings: [Sighting])] = []
        for recording in try await store.surveyRecordings(venue: venue) where !recording.isOpen {
            read.append((recording, try await store.surveySightings(recording: recording.id)))
        }
        return Self.recording(read)
    }

    /// Where the survey's truth went, by cell of ``cellMeters`` (docs/SURVEY.md): a cell without rows is a place the
    /// survey never saw.
    struct Coverage: Hashable, Sendable, Encodable {
        /// One cell the truth passed through.
        struct Cell: Hashable, Sendable, Encodable {
            /// The floor's level, when the truth gives one.
            var floor: Int?
            /// The cell's corner of least x and y, metres.
            var x: Double
            var y: Double
            /// Truth rows in the cell (a walk has one every half second; an import as many as its file).
            var rows: Int
        }

        /// The side of a cell, metres.
        var cellMeters: Double
        /// The cells with truth rows, by floor, then y, then x.
        var cells: [Cell]
    }

    /// The coverage of `truth` (``Coverage``).
    static func coverage(_ truth: [TruthPoint]) -> Coverage {
        struct Key: Hashable {
            var floor: Int?
            var column: Int
            var row: Int
        }
        var counts: [Key: Int] = [:]
        for point in truth where point.point.x.isFinite && point.point.y.isFinite {
            let column = Int((point.point.x / cellMeters).rounded(.down))
            let row = Int((point.point.y / cellMeters).rounded(.down))
            counts[Key(floor: point.floor, column: column, row: row), default: 0] += 1
        }
        let cells = counts.map { key, rows in
            Coverage.Cell(
                floor: key.floor, x: Double(key.column) * cellMeters, y: Double(key.row) * cellMeters, rows: rows)
        }.sorted { ($0.floor ?? Int.min, $0.y, $0.x) < ($1.floor ?? Int.min, $1.y, $1.x) }
        return Coverage(cellMeters: cellMeters, cells: cells)
    }

    /// The survey as a dataset folder's files in a zip (datasets/FORMAT.md): `nodes.csv` (the venue's nodes),
    /// `train/sightings.csv` and `train/truth.csv`.
    static func datasetFiles(_ survey: Recording, nodes: [Node]) -> [(path: String, data: Data)] {
        [
            ("nodes.csv", Data(DatasetCSV.nodesText(nodes).utf8)),
            ("train/sightings.csv", Data(DatasetCSV.sightingsText(survey.sightings).utf8)),
            ("train/truth.csv", Data(DatasetCSV.truthText(survey.truth).utf8)),
        ]
    }
}

extension LocationStore {
    /// `venue`'s survey as the server learns it (its stopped recordings made into one: each walk's sightings between
    /// its first and last mark, the truth its marks give; an import as it was), or `nil` when it has none. What
    /// `GET /v1/venues/{id}/survey/export` and `indoor survey export` hand out.
    /// - Throws: The store's error.
    public func survey(venue: String) async throws -> Recording? {
        try await SurveyComposition.recording(venue: venue, store: self)
    }
}
