import Foundation
import GRDB
import IndoorModel

extension SQLiteStore {
    public func surveyRecordings(venue: String) async throws -> [StoredSurveyRecording] {
        try await pool.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM surveyRecording WHERE venue = ? ORDER BY id", arguments: [venue])
            return try rows.map { try Self.recording($0, db: db) }
        }
    }

    public func surveyRecording(venue: String, id: Int64) async throws -> StoredSurveyRecording? {
        try await pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM surveyRecording WHERE venue = ? AND id = ?", arguments: [venue, id]
            ).map { try Self.recording($0, db: db) }
        }
    }

    /// The recording of `row`, with its marks read in `db`.
    private static func recording(_ row: Row, db: Database) throws -> StoredSurveyRecording {
        let id: Int64 = row["id"]
        let marks = try Row.fetchAll(
            db, sql: "SELECT t, x, y, floor, hold FROM surveyMark WHERE recording = ? ORDER BY seq", arguments: [id]
        ).map { mark in
            SurveyMark(
                time: mark["t"], point: Point2D(x: mark["x"], y: mark["y"]), floor: mark["floor"], hold: mark["hold"])
        }
        let source: String = row["source"]
        return StoredSurveyRecording(
            id: id, venue: row["venue"], device: row["device"],
            source: StoredSurveyRecording.Source(rawValue: source) ?? .walk, startedAt: row["startedAt"],
            stoppedAt: row["stoppedAt"], marks: marks, sightings: row["sightings"], droppedSightings: row["dropped"])
    }

    public func startSurveyRecording(venue: String, device: String, startedAt: Double) async throws -> Int64 {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO surveyRecording (venue, device, source, startedAt) VALUES (?, ?, 'walk', ?)",
                arguments: [venue, device, startedAt])
            return db.lastInsertedRowID
        }
    }

    public func addSurveyMark(_ mark: SurveyMark, venue: String, recording: Int64) async throws -> SurveyMarkRefusal? {
        try await pool.write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT stoppedAt FROM surveyRecording WHERE venue = ? AND id = ?",
                    arguments: [venue, recording])
            else { return .unknown }
            guard (row["stoppedAt"] as Double?) == nil else { return .stopped }
            let last = try Row.fetchOne(
                db, sql: "SELECT seq, t, hold FROM surveyMark WHERE recording = ? ORDER BY seq DESC LIMIT 1",
                arguments: [recording])
            let seq: Int64 = last.map { $0["seq"] } ?? -1
            if let last {
                let end = (last["t"] as Double) + (last["hold"] as Double)
                guard mark.time >= end else { return .beforeLast(end) }
            }
            guard seq + 1 < SurveyLimits.maximumMarks else { return .full }
            try Self.insert([mark], recording: recording, from: seq + 1, db: db)
            return nil
        }
    }

    /// Writes `marks` of `recording` in `db`, numbered from `seq`.
    private static func insert(_ marks: [SurveyMark], recording: Int64, from seq: Int64, db: Database) throws {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO surveyMark (recording, seq, t, x, y, floor, hold) VALUES (?, ?, ?, ?, ?, ?, ?)")
        for (offset, mark) in marks.enumerated() {
            try statement.execute(arguments: [
                recording, seq + Int64(offset), mark.time, mark.point.x, mark.point.y, mark.floor, mark.hold,
            ])
        }
    }

    public func stopSurveyRecording(venue: String, id: Int64, stoppedAt: Double) async throws -> SurveyMarkRefusal? {
        try await pool.write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT stoppedAt FROM surveyRecording WHERE venue = ? AND id = ?", arguments: [venue, id])
            else { return .unknown }
            guard (row["stoppedAt"] as Double?) == nil else { return .stopped }
            let marks =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM surveyMark WHERE recording = ?", arguments: [id]) ?? 0
            guard marks > 0 else { return .noMarks }
            try db.execute(sql: "UPDATE surveyRecording SET stoppedAt = ? WHERE id = ?", arguments: [stoppedAt, id])
            return nil
        }
    }

    public func deleteSurveyRecording(venue: String, id: Int64) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM surveyRecording WHERE venue = ? AND id = ?", arguments: [venue, id])
            guard db.changesCount > 0 else { return false }
            try Self.deleteRows(ofRecordings: [id], db: db)
            return true
        }
    }

    /// Deletes the marks and sightings of `recordings` in `db`.
    static func deleteRows(ofRecordings recordings: [Int64], db: Database) throws {
        for id in recordings {
            try db.execute(sql: "DELETE FROM surveyMark WHERE recording = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM surveySighting WHERE recording = ?", arguments: [id])
        }
    }

    /// Deletes the recordings of `venue` (all of them, or `onlyImported`) or of `device` (in `venue`, or every venue
    /// when `nil`) in `db`.
    /// - Returns: How many recordings were deleted.
    static func deleteSurvey(venue: String?, device: String?, onlyImported: Bool = false, db: Database) throws -> Int {
        let ids = try Int64.fetchAll(
            db,
            sql: """
                SELECT id FROM surveyRecording WHERE (? IS NULL OR venue = ?) AND (? IS NULL OR device = ?)
                AND (? = 0 OR source = 'imported')
                """,
            arguments: [venue, venue, device, device, onlyImported])
        for id in ids { try db.execute(sql: "DELETE FROM surveyRecording WHERE id = ?", arguments: [id]) }
        try deleteRows(ofRecordings: ids, db: db)
        return ids.count
    }

    @discardableResult public func addSurveySightings(_ sightings: [Sighting], recording: Int64) async throws -> Int {
        guard !sightings.isEmpty else { return 0 }
        return try await pool.write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT stoppedAt, sightings FROM surveyRecording WHERE id = ?", arguments: [recording]),
                (row["stoppedAt"] as Double?) == nil
            else { return 0 }
            let kept = min(sightings.count, max(0, SurveyLimits.maximumSightings - (row["sightings"] as Int)))
            try Self.insert(sightings.prefix(kept), recording: recording, db: db)
            try db.execute(
                sql: "UPDATE surveyRecording SET sightings = sightings + ?, dropped = dropped + ? WHERE id = ?",
                arguments: [kept, sightings.count - kept, recording])
            return kept
        }
    }

    /// Writes `sightings` of `recording` in `db`.
    private static func insert(_ sightings: some Collection<Sighting>, recording: Int64, db: Database) throws {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO surveySighting (recording, t, node, beacon, rssi, tx) VALUES (?, ?, ?, ?, ?, ?)")
        for sighting in sightings {
            var node: String?
            var beacon: String?
            switch sighting.source {
            case .node(let id): node = id
            case .beacon(let id): beacon = id.description
            }
            try statement.execute(arguments: [recording, sighting.time, node, beacon, sighting.rssi, sighting.txPower])
        }
    }

    public func surveySightings(recording: Int64) async throws -> [Sighting] {
        try await pool.read { db in
            guard
                let device = try String.fetchOne(
                    db, sql: "SELECT device FROM surveyRecording WHERE id = ?", arguments: [recording])
            else { return [] }
            return try Row.fetchAll(
                db, sql: "SELECT t, node, beacon, rssi, tx FROM surveySighting WHERE recording = ? ORDER BY id",
                arguments: [recording]
            ).map { row in
                try ReceivedSighting(
                    time: row["t"], device: device, node: row["node"], beacon: row["beacon"], rssi: row["rssi"],
                    txPower: row["tx"], receivedAt: 0
                ).sighting
            }
        }
    }

    @discardableResult public func replaceSurvey(
        venue: String, with recordings: [SurveyImport], storedAt: Double, keepingWalks: Bool
    ) async throws -> [Int64] {
        try await pool.write { db in
            _ = try Self.deleteSurvey(venue: venue, device: nil, onlyImported: keepingWalks, db: db)
            var ids: [Int64] = []
            for recording in recordings {
                let kept = min(recording.sightings.count, SurveyLimits.maximumSightings)
                try db.execute(
                    sql: """
                        INSERT INTO surveyRecording (venue, device, source, startedAt, stoppedAt, sightings, dropped)
                        VALUES (?, ?, 'imported', ?, ?, ?, ?)
                        """,
                    arguments: [venue, recording.device, storedAt, storedAt, kept, recording.sightings.count - kept])
                let id = db.lastInsertedRowID
                try Self.insert(
                    Array(recording.marks.prefix(SurveyLimits.maximumMarks)), recording: id, from: 0, db: db)
                try Self.insert(recording.sightings.prefix(kept), recording: id, db: db)
                ids.append(id)
            }
            return ids
        }
    }
}
