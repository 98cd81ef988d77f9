import Foundation
import IndoorModel
import PostgresNIO

extension PostgresStore {
    package func surveyRecordings(venue: String) async throws -> [StoredSurveyRecording] {
        try await mapped {
            try await client.withConnection { connection in
                let rows = try await connection.query(
                    """
                    SELECT id, venue, device, source, started_at, stopped_at, sightings, dropped FROM survey_recording
                    WHERE venue = \(venue) ORDER BY id
                    """, logger: logger
                ).collect()
                var recordings: [StoredSurveyRecording] = []
                for row in rows { recordings.append(try await Self.recording(row, on: connection, logger: logger)) }
                return recordings
            }
        }
    }

    package func surveyRecording(venue: String, id: Int64) async throws -> StoredSurveyRecording? {
        try await mapped {
            try await client.withConnection { connection in
                guard
                    let row = try await connection.query(
                        """
                        SELECT id, venue, device, source, started_at, stopped_at, sightings, dropped
                        FROM survey_recording WHERE venue = \(venue) AND id = \(id)
                        """, logger: logger
                    ).collect().first
                else { return nil }
                return try await Self.recording(row, on: connection, logger: logger)
            }
        }
    }

    /// The recording of `row`, with its marks read on `connection`.
    private static func recording(
        _ row: PostgresRow, on connection: PostgresConnection, logger: Logger
    ) async throws -> StoredSurveyRecording {
        let (id, venue, device, source, startedAt, stoppedAt, sightings, dropped) = try row.decode(
            (Int64, String, String, String, Double, Double?, Int64, Int64).self)
        var marks: [SurveyMark] = []
        for try await (time, x, y, floor, hold) in try await connection.query(
            "SELECT t, x, y, floor, hold FROM survey_mark WHERE recording = \(id) ORDER BY seq", logger: logger
        ).decode((Double, Double, Double, Int64?, Double).self) {
            marks.append(SurveyMark(time: time, point: Point2D(x: x, y: y), floor: floor.map { Int($0) }, hold: hold))
        }
        return StoredSurveyRecording(
            id: id, venue: venue, device: device, source: StoredSurveyRecording.Source(rawValue: source) ?? .walk,
            startedAt: startedAt, stoppedAt: stoppedAt, marks: marks, sightings: Int(sightings),
            droppedSightings: Int(dropped))
    }

    package func startSurveyRecording(venue: String, device: String, startedAt: Double) async throws -> Int64 {
        try await mapped {
            guard
                let row = try await client.query(
                    """
                    INSERT INTO survey_recording (venue, device, source, started_at)
                    VALUES (\(venue), \(device), 'walk', \(startedAt)) RETURNING id
                    """, logger: logger
                ).collect().first
            else { throw StoreError("the survey recording was not stored") }
            return try row.decode(Int64.self)
        }
    }

    /// The recording `id` of `venue` locked for the transaction on `connection`: whether it is open, or `nil` when
    /// there is none.
    private func lockedRecording(_ id: Int64, venue: String?, on connection: PostgresConnection) async throws -> (
        open: Bool, sightings: Int
    )? {
        var binds = PostgresBindings()
        binds.append(id)
        if let venue { binds.append(venue) } else { binds.appendNull() }
        let query = PostgresQuery(
            unsafeSQL: """
                SELECT stopped_at IS NULL, sightings FROM survey_recording
                WHERE id = $1 AND ($2::text IS NULL OR venue = $2) FOR UPDATE
                """, binds: binds)
        guard let row = try await connection.query(query, logger: logger).collect().first else { return nil }
        let (open, sightings) = try row.decode((Bool, Int64).self)
        return (open, Int(sightings))
    }

    package func addSurveyMark(_ mark: SurveyMark, venue: String, recording: Int64) async throws -> SurveyMarkRefusal? {
        try await mapped {
            try await client.withTransaction(logger: logger) { connection in
                guard let locked = try await lockedRecording(recording, venue: venue, on: connection) else {
                    return .unknown
                }
                guard locked.open else { return .stopped }
                let last = try await connection.query(
                    "SELECT seq, t + hold FROM survey_mark WHERE recording = \(recording) ORDER BY seq DESC LIMIT 1",
                    logger: logger
                ).collect().first.map { try $0.decode((Int64, Double).self) }
                if let last, mark.time < last.1 { return .beforeLast(last.1) }
                let seq = (last?.0 ?? -1) + 1
                guard seq < SurveyLimits.maximumMarks else { return .full }
                try await Self.insert([mark], recording: recording, from: seq, on: connection, logger: logger)
                return nil
            }
        }
    }

    /// Writes `marks` of `recording` on `connection`, numbered from `seq`, ``rowsPerStatement`` to a statement.
    private static func insert(
        _ marks: [SurveyMark], recording: Int64, from seq: Int64, on connection: PostgresConnection, logger: Logger
    ) async throws {
        var start = 0
        while start < marks.count {
            let end = min(start + rowsPerStatement, marks.count)
            var binds = PostgresBindings(capacity: (end - start) * 7)
            var rows: [String] = []
            for index in start..<end {
                let mark = marks[index]
                let first = binds.count + 1
                rows.append("(" + (first..<first + 7).map { "$\($0)" }.joined(separator: ",") + ")")
                binds.append(recording)
                binds.append(seq + Int64(index))
                binds.append(mark.time)
                binds.append(mark.point.x)
                binds.append(mark.point.y)
                binds.append(mark.floor.map { Int64($0) })
                binds.append(mark.hold)
            }
            try await connection.query(
                PostgresQuery(
                    unsafeSQL: "INSERT INTO survey_mark (recording, seq, t, x, y, floor, hold) VALUES "
                        + rows.joined(separator: ","), binds: binds),
                logger: logger)
            start = end
        }
    }

    /// Writes `sightings` of `recording` on `connection`, ``rowsPerStatement`` to a statement.
    private static func insert(
        _ sightings: ArraySlice<Sighting>, recording: Int64, on connection: PostgresConnection, logger: Logger
    ) async throws {
        var start = sightings.startIndex
        while start < sightings.endIndex {
            let end = min(start + rowsPerStatement, sightings.endIndex)
            var binds = PostgresBindings(capacity: (end - start) * 6)
            var rows: [String] = []
            for sighting in sightings[start..<end] {
                var node: String?
                var beacon: String?
                switch sighting.source {
                case .node(let id): node = id
                case .beacon(let id): beacon = id.description
                }
                let first = binds.count + 1
                rows.append("(" + (first..<first + 6).map { "$\($0)" }.joined(separator: ",") + ")")
                binds.append(recording)
                binds.append(sighting.time)
                binds.append(node)
                binds.append(beacon)
                binds.append(sighting.rssi)
                binds.append(sighting.txPower)
            }
            try await connection.query(
                PostgresQuery(
                    unsafeSQL: "INSERT INTO survey_sighting (recording, t, node, beacon, rssi, tx) VALUES "
                        + rows.joined(separator: ","), binds: binds),
                logger: logger)
            start = end
        }
    }

    package func stopSurveyRecording(venue: String, id: Int64, stoppedAt: Double) async throws -> SurveyMarkRefusal? {
        try await mapped {
            try await client.withTransaction(logger: logger) { connection in
                guard let locked = try await lockedRecording(id, venue: venue, on: connection) else { return .unknown }
                guard locked.open else { return .stopped }
                let marks =
                    try await connection.query(
                        "SELECT COUNT(*) FROM survey_mark WHERE recording = \(id)", logger: logger
                    ).collect().first?.decode(Int64.self) ?? 0
                guard marks > 0 else { return .noMarks }
                try await connection.query(
                    "UPDATE survey_recording SET stopped_at = \(stoppedAt) WHERE id = \(id)", logger: logger)
                return nil
            }
        }
    }

    package func deleteSurveyRecording(venue: String, id: Int64) async throws -> Bool {
        try await mapped {
            try await client.withTransaction(logger: logger) { connection in
                let gone = try await connection.query(
                    "DELETE FROM survey_recording WHERE venue = \(venue) AND id = \(id) RETURNING id", logger: logger
                ).collect()
                guard !gone.isEmpty else { return false }
                try await Self.deleteRows(ofRecordings: [id], on: connection, logger: logger)
                return true
            }
        }
    }

    /// Deletes the marks and sightings of `recordings` on `connection`.
    static func deleteRows(ofRecordings recordings: [Int64], on connection: PostgresConnection, logger: Logger)
        async throws
    {
        guard !recordings.isEmpty else { return }
        try await connection.query("DELETE FROM survey_mark WHERE recording = ANY(\(recordings))", logger: logger)
        try await connection.query("DELETE FROM survey_sighting WHERE recording = ANY(\(recordings))", logger: logger)
    }

    /// Deletes the recordings of `venue` (all of them, or `onlyImported`) or of `device` (in `venue`, or every venue
    /// when `nil`) on `connection`, with their marks and sightings.
    /// - Returns: How many recordings were deleted.
    static func deleteSurvey(
        venue: String?, device: String?, onlyImported: Bool = false, on connection: PostgresConnection, logger: Logger
    ) async throws -> Int {
        var binds = PostgresBindings()
        if let venue { binds.append(venue) } else { binds.appendNull() }
        if let device { binds.append(device) } else { binds.appendNull() }
        binds.append(onlyImported)
        let query = PostgresQuery(
            unsafeSQL: """
                DELETE FROM survey_recording WHERE ($1::text IS NULL OR venue = $1) AND ($2::text IS NULL OR device = $2)
                AND (NOT $3::boolean OR source = 'imported') RETURNING id
                """, binds: binds)
        var ids: [Int64] = []
        for try await id in try await connection.query(query, logger: logger).decode(Int64.self) { ids.append(id) }
        try await deleteRows(ofRecordings: ids, on: connection, logger: logger)
        return ids.count
    }

    @discardableResult package func addSurveySightings(_ sightings: [Sighting], recording: Int64) async throws -> Int {
        guard !sightings.isEmpty else { return 0 }
        return try await mapped {
            try await client.withTransaction(logger: logger) { connection in
                guard let locked = try await lockedRecording(recording, venue: nil, on: connection), locked.open else {
                    return 0
                }
                let kept = min(sightings.count, max(0, SurveyLimits.maximumSightings - locked.sightings))
                try await Self.insert(sightings.prefix(kept), recording: recording, on: connection, logger: logger)
                let dropped = sightings.count - kept
                try await connection.query(
                    """
                    UPDATE survey_recording SET sightings = sightings + \(Int64(kept)),
                    dropped = dropped + \(Int64(dropped)) WHERE id = \(recording)
                    """, logger: logger)
                return kept
            }
        }
    }

    package func surveySightings(recording: Int64) async throws -> [Sighting] {
        try await mapped {
            guard
                let device = try await client.query(
                    "SELECT device FROM survey_recording WHERE id = \(recording)", logger: logger
                ).collect().first?.decode(String.self)
            else { return [] }
            var sightings: [Sighting] = []
            for try await (time, node, beacon, rssi, tx) in try await client.query(
                "SELECT t, node, beacon, rssi, tx FROM survey_sighting WHERE recording = \(recording) ORDER BY id",
                logger: logger
            ).decode((Double, String?, String?, Double, Double?).self) {
                sightings.append(
                    try ReceivedSighting(
                        time: time, device: device, node: node, beacon: beacon, rssi: rssi, txPower: tx, receivedAt: 0
                    ).sighting)
            }
            return sightings
        }
    }

    @discardableResult package func replaceSurvey(
        venue: String, with recordings: [SurveyImport], storedAt: Double, keepingWalks: Bool
    ) async throws -> [Int64] {
        try await mapped {
            try await client.withTransaction(logger: logger) { connection in
                _ = try await Self.deleteSurvey(
                    venue: venue, device: nil, onlyImported: keepingWalks, on: connection, logger: logger)
                var ids: [Int64] = []
                for recording in recordings {
                    let kept = min(recording.sightings.count, SurveyLimits.maximumSightings)
                    let dropped = recording.sightings.count - kept
                    guard
                        let row = try await connection.query(
                            """
                            INSERT INTO survey_recording (venue, device, source, started_at, stopped_at, sightings,
                                dropped)
                            VALUES (\(venue), \(recording.device), 'imported', \(storedAt), \(storedAt),
                                \(Int64(kept)), \(Int64(dropped)))
                            RETURNING id
                            """, logger: logger
                        ).collect().first
                    else { throw StoreError("the survey recording was not stored") }
                    let id = try row.decode(Int64.self)
                    try await Self.insert(
                        Array(recording.marks.prefix(SurveyLimits.maximumMarks)), recording: id, from: 0,
                        on: connection, logger: logger)
                    try await Self.insert(
                        recording.sightings.prefix(kept), recording: id, on: connection, logger: logger)
                    ids.append(id)
                }
                return ids
            }
        }
    }
}
