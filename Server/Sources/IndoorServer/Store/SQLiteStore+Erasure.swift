import Foundation
import GRDB
import IndoorModel

extension SQLiteStore {
    public func eraseDevice(_ device: String, venue: String?) async throws -> DataCounts {
        try await pool.write { db in
            // `venue = ?1 OR ?1 IS NULL`: one venue, or every venue.
            func delete(_ table: String) throws -> Int {
                try db.execute(
                    sql: "DELETE FROM \(table) WHERE device = ? AND (? IS NULL OR venue = ?)",
                    arguments: [device, venue, venue])
                return db.changesCount
            }
            return DataCounts(
                sightings: try delete("sighting"), events: try delete("event"), latestFixes: try delete("device"),
                visits: try delete("visit"),
                surveyRecordings: try Self.deleteSurvey(venue: venue, device: device, db: db))
        }
    }

    public func deviceRecords(_ query: DeviceRecordQuery) async throws -> [DeviceRecord] {
        let from = query.from ?? -Double.greatestFiniteMagnitude
        let to = query.to ?? Double.greatestFiniteMagnitude
        let limit = max(0, query.limit)
        switch query.kind {
        case .latest:
            let rows = try await pool.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT venue, fix FROM device WHERE device = ? AND t >= ? AND t < ? ORDER BY venue",
                    arguments: [query.device, from, to]
                ).map { row -> (String, Data) in (row["venue"], row["fix"]) }
            }
            return rows.map { DeviceRecord(kind: .latest, id: 0, venue: $0.0, json: $0.1) }
        case .sighting:
            let rows = try await pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, venue, t, device, node, beacon, rssi, tx, receivedAt FROM sighting
                        WHERE device = ? AND id > ? AND t >= ? AND t < ? ORDER BY id LIMIT ?
                        """, arguments: [query.device, query.after, from, to, limit]
                ).map { row in
                    (
                        id: row["id"] as Int64, venue: row["venue"] as String,
                        sighting: ExportedSighting(
                            t: row["t"], device: row["device"], node: row["node"], beacon: row["beacon"],
                            rssi: row["rssi"], tx: row["tx"], receivedAt: row["receivedAt"])
                    )
                }
            }
            let encoder = JSONFormat.encoder()
            return try rows.map {
                DeviceRecord(kind: .sighting, id: $0.id, venue: $0.venue, json: try encoder.encode($0.sighting))
            }
        case .fix, .event:
            let rows = try await pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, venue, type, json FROM event
                        WHERE device = ? AND id > ? AND t >= ? AND t < ? ORDER BY id LIMIT ?
                        """, arguments: [query.device, query.after, from, to, limit]
                ).map { row -> (Int64, String, String, Data) in (row["id"], row["venue"], row["type"], row["json"]) }
            }
            return rows.map { id, venue, type, json in
                DeviceRecord(kind: type == "fix" ? .fix : .event, id: id, venue: venue, json: json)
            }
        case .visit:
            let visits = try await pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT * FROM visit WHERE device = ? AND id > ? AND (checkOut IS NULL OR checkOut >= ?)
                        AND checkIn < ? ORDER BY id LIMIT ?
                        """, arguments: [query.device, query.after, from, to, limit]
                ).map { row in
                    Visit(
                        id: row["id"], venue: row["venue"], zone: row["zone"], zoneName: row["zoneName"],
                        device: row["device"], trigger: row["trigger"], checkIn: row["checkIn"],
                        checkOut: row["checkOut"], departure: row["departure"], dwell: row["dwell"],
                        reason: row["reason"])
                }
            }
            let encoder = JSONFormat.encoder()
            return try visits.map {
                DeviceRecord(kind: .visit, id: $0.id, venue: $0.venue, json: try encoder.encode($0))
            }
        case .surveyRecording:
            let recordings = try await pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, venue, device, source, startedAt, stoppedAt FROM surveyRecording
                        WHERE device = ? AND id > ? AND startedAt < ? AND (stoppedAt IS NULL OR stoppedAt >= ?)
                        ORDER BY id LIMIT ?
                        """, arguments: [query.device, query.after, to, from, limit]
                ).map { row in
                    let id: Int64 = row["id"]
                    let marks = try Row.fetchAll(
                        db, sql: "SELECT t, x, y, floor, hold FROM surveyMark WHERE recording = ? ORDER BY seq",
                        arguments: [id]
                    ).map {
                        ExportedSurveyRecording.Mark(
                            t: $0["t"], x: $0["x"], y: $0["y"], floor: $0["floor"], hold: $0["hold"])
                    }
                    return (
                        id: id, venue: row["venue"] as String,
                        recording: ExportedSurveyRecording(
                            device: row["device"], source: row["source"], startedAt: row["startedAt"],
                            stoppedAt: row["stoppedAt"], marks: marks)
                    )
                }
            }
            let encoder = JSONFormat.encoder()
            return try recordings.map {
                DeviceRecord(kind: .surveyRecording, id: $0.id, venue: $0.venue, json: try encoder.encode($0.recording))
            }
        case .surveySighting:
            let rows = try await pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT s.id, r.venue, s.recording, s.t, s.node, s.beacon, s.rssi, s.tx
                        FROM surveySighting s JOIN surveyRecording r ON r.id = s.recording
                        WHERE r.device = ? AND s.id > ? AND s.t >= ? AND s.t < ? ORDER BY s.id LIMIT ?
                        """, arguments: [query.device, query.after, from, to, limit]
                ).map { row in
                    (
                        id: row["id"] as Int64, venue: row["venue"] as String,
                        sighting: ExportedSurveySighting(
                            recording: row["recording"], t: row["t"], node: row["node"], beacon: row["beacon"],
                            rssi: row["rssi"], tx: row["tx"])
                    )
                }
            }
            let encoder = JSONFormat.encoder()
            return try rows.map {
                DeviceRecord(kind: .surveySighting, id: $0.id, venue: $0.venue, json: try encoder.encode($0.sighting))
            }
        }
    }

    public func purgeVenueData(id: String) async throws -> DataCounts {
        try await pool.write { db in
            func delete(_ table: String) throws -> Int {
                try db.execute(sql: "DELETE FROM \(table) WHERE venue = ?", arguments: [id])
                return db.changesCount
            }
            return DataCounts(
                sightings: try delete("sighting"), events: try delete("event"), latestFixes: try delete("device"),
                visits: try delete("visit"))
        }
    }

    public func closeVisits(ids: [Int64], checkOut: Double?, closedAt: Double) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try await pool.write { db in
            var closed = 0
            for id in ids {
                try db.execute(
                    sql: """
                        UPDATE visit SET checkOut = COALESCE(?, checkIn), reason = 'lost', closedAt = ?
                        WHERE id = ? AND checkOut IS NULL
                        """, arguments: [checkOut, closedAt, id])
                closed += db.changesCount
            }
            return closed
        }
    }

    public func pruneLatestFixes() async throws -> [ExpiredDevice] {
        try await pool.write { db in
            // The venue's oldest event by id (the index on venue, id) is, near enough, its oldest by time.
            let expired = """
                t < COALESCE((SELECT e.t FROM event e WHERE e.venue = device.venue ORDER BY e.id LIMIT 1), 1e308)
                """
            let devices = try Row.fetchAll(db, sql: "SELECT venue, device FROM device WHERE \(expired)").map { row in
                ExpiredDevice(venue: row["venue"], device: row["device"])
            }
            try db.execute(sql: "DELETE FROM device WHERE \(expired)")
            return devices
        }
    }
}

extension SQLiteStore {
    public func serverSecret(named name: String, orNew candidate: Data) async throws -> Data {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO serverSecret (name, value, createdAt) VALUES (?, ?, ?) ON CONFLICT(name) DO NOTHING",
                arguments: [name, candidate, Date().timeIntervalSince1970])
            guard
                let stored = try Data.fetchOne(
                    db, sql: "SELECT value FROM serverSecret WHERE name = ?", arguments: [name])
            else { throw StoreError("the secret '\(name)' was not stored") }
            return stored
        }
    }
}

extension SQLiteStore {
    /// Moves the write-ahead log into the database file and empties it (`PRAGMA wal_checkpoint(TRUNCATE)`): after it,
    /// the file alone holds what the database holds (tests read its bytes).
    package func checkpoint() async throws {
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }
}
