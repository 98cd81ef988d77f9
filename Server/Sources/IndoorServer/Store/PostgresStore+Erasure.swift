import Foundation
import IndoorGeofencing
import IndoorModel
import PostgresNIO

extension PostgresStore {
    package func eraseDevice(_ device: String, venue: String?) async throws -> DataCounts {
        try await mapped {
            try await client.withTransaction(logger: logger) { connection in
                func delete(_ table: String) async throws -> Int {
                    var binds = PostgresBindings()
                    binds.append(device)
                    if let venue { binds.append(venue) } else { binds.appendNull() }
                    let query = PostgresQuery(
                        unsafeSQL: """
                            WITH gone AS (DELETE FROM \(table) WHERE device = $1 AND ($2::text IS NULL OR venue = $2)
                            RETURNING 1) SELECT COUNT(*) FROM gone
                            """, binds: binds)
                    return Int(
                        try await connection.query(query, logger: logger).collect().first?.decode(Int64.self) ?? 0)
                }
                return DataCounts(
                    sightings: try await delete("sighting"), events: try await delete("event"),
                    latestFixes: try await delete("device"), visits: try await delete("visit"),
                    surveyRecordings: try await Self.deleteSurvey(
                        venue: venue, device: device, on: connection, logger: logger))
            }
        }
    }

    package func deviceRecords(_ query: DeviceRecordQuery) async throws -> [DeviceRecord] {
        let from = query.from ?? -Double.greatestFiniteMagnitude
        let to = query.to ?? Double.greatestFiniteMagnitude
        let limit = Int64(max(0, query.limit))
        let device = query.device
        let after = query.after
        switch query.kind {
        case .latest:
            let rows = try await mapped {
                try await client.query(
                    """
                    SELECT venue, fix::text FROM device WHERE device = \(device) AND t >= \(from) AND t < \(to)
                    ORDER BY venue
                    """, logger: logger
                ).collect()
            }
            return try rows.map { row in
                let (venue, text) = try row.decode((String, String).self)
                return DeviceRecord(
                    kind: .latest, id: 0, venue: venue, json: try Self.eventJSON(printed: text, type: "fix"))
            }
        case .sighting:
            let rows = try await mapped {
                try await client.query(
                    """
                    SELECT id, venue, t, device, node, beacon, rssi, tx, received_at FROM sighting
                    WHERE device = \(device) AND id > \(after) AND t >= \(from) AND t < \(to) ORDER BY id LIMIT \(limit)
                    """, logger: logger
                ).collect()
            }
            let encoder = JSONFormat.encoder()
            return try rows.map { row in
                let (id, venue, time, device, node, beacon, rssi, tx, receivedAt) = try row.decode(
                    (Int64, String, Double, String, String?, String?, Double, Double?, Double).self)
                let sighting = ExportedSighting(
                    t: time, device: device, node: node, beacon: beacon, rssi: rssi, tx: tx, receivedAt: receivedAt)
                return DeviceRecord(kind: .sighting, id: id, venue: venue, json: try encoder.encode(sighting))
            }
        case .fix, .event:
            let rows = try await mapped {
                try await client.query(
                    """
                    SELECT id, venue, type, json::text FROM event
                    WHERE device = \(device) AND id > \(after) AND t >= \(from) AND t < \(to) ORDER BY id LIMIT \(limit)
                    """, logger: logger
                ).collect()
            }
            return try rows.map { row in
                let (id, venue, type, text) = try row.decode((Int64, String, String, String).self)
                return DeviceRecord(
                    kind: type == "fix" ? .fix : .event, id: id, venue: venue,
                    json: try Self.eventJSON(printed: text, type: type))
            }
        case .visit:
            let rows = try await mapped {
                try await client.query(
                    """
                    SELECT id, venue, zone, zone_name, device, trigger, check_in, check_out, departure, dwell, reason
                    FROM visit WHERE device = \(device) AND id > \(after) AND (check_out IS NULL OR check_out >= \(from))
                    AND check_in < \(to) ORDER BY id LIMIT \(limit)
                    """, logger: logger
                ).collect()
            }
            let encoder = JSONFormat.encoder()
            return try rows.map { row in
                let (id, venue, zone, zoneName, device, trigger, checkIn, checkOut, departure, dwell, reason) =
                    try row.decode(
                        (Int64, String, String, String, String, String, Double, Double?, Double?, Double?, String?).self
                    )
                let visit = Visit(
                    id: id, venue: venue, zone: zone, zoneName: zoneName, device: device, trigger: trigger,
                    checkIn: checkIn, checkOut: checkOut, departure: departure, dwell: dwell, reason: reason)
                return DeviceRecord(kind: .visit, id: id, venue: venue, json: try encoder.encode(visit))
            }
        case .surveyRecording:
            let rows = try await mapped {
                try await client.query(
                    """
                    SELECT id, venue, device, source, started_at, stopped_at FROM survey_recording
                    WHERE device = \(device) AND id > \(after) AND started_at < \(to)
                    AND (stopped_at IS NULL OR stopped_at >= \(from)) ORDER BY id LIMIT \(limit)
                    """, logger: logger
                ).collect()
            }
            let encoder = JSONFormat.encoder()
            var records: [DeviceRecord] = []
            for row in rows {
                let (id, venue, device, source, startedAt, stoppedAt) = try row.decode(
                    (Int64, String, String, String, Double, Double?).self)
                let markRows = try await mapped {
                    try await client.query(
                        "SELECT t, x, y, floor, hold FROM survey_mark WHERE recording = \(id) ORDER BY seq",
                        logger: logger
                    ).collect()
                }
                let marks = try markRows.map { mark in
                    let (t, x, y, floor, hold) = try mark.decode((Double, Double, Double, Int64?, Double).self)
                    return ExportedSurveyRecording.Mark(t: t, x: x, y: y, floor: floor.map { Int($0) }, hold: hold)
                }
                let recording = ExportedSurveyRecording(
                    device: device, source: source, startedAt: startedAt, stoppedAt: stoppedAt, marks: marks)
                records.append(
                    DeviceRecord(kind: .surveyRecording, id: id, venue: venue, json: try encoder.encode(recording)))
            }
            return records
        case .surveySighting:
            let rows = try await mapped {
                try await client.query(
                    """
                    SELECT s.id, r.venue, s.recording, s.t, s.node, s.beacon, s.rssi, s.tx
                    FROM survey_sighting s JOIN survey_recording r ON r.id = s.recording
                    WHERE r.device = \(device) AND s.id > \(after) AND s.t >= \(from) AND s.t < \(to)
                    ORDER BY s.id LIMIT \(limit)
                    """, logger: logger
                ).collect()
            }
            let encoder = JSONFormat.encoder()
            return try rows.map { row in
                let (id, venue, recording, time, node, beacon, rssi, tx) = try row.decode(
                    (Int64, String, Int64, Double, String?, String?, Double, Double?).self)
                let sighting = ExportedSurveySighting(
                    recording: recording, t: time, node: node, beacon: beacon, rssi: rssi, tx: tx)
                return DeviceRecord(kind: .surveySighting, id: id, venue: venue, json: try encoder.encode(sighting))
            }
        }
    }

    /// `text`, JSON that PostgreSQL printed from a `jsonb` column, as the event's JSON that SQLite keeps and the API
    /// answers (``ServerEvent/json(_:)``), so both stores answer the same bytes.
    static func eventJSON(printed text: String, type: String) throws -> Data {
        let decoder = JSONDecoder()
        let data = Data(text.utf8)
        let event = try ServerEvent.decode(type: type, json: data, decoder: decoder)
        return try event.json(JSONFormat.encoder())
    }

    package func purgeVenueData(id: String) async throws -> DataCounts {
        try await mapped {
            try await client.withTransaction(logger: logger) { connection in
                func delete(_ table: String) async throws -> Int {
                    var binds = PostgresBindings()
                    binds.append(id)
                    let query = PostgresQuery(
                        unsafeSQL:
                            "WITH gone AS (DELETE FROM \(table) WHERE venue = $1 RETURNING 1) SELECT COUNT(*) FROM gone",
                        binds: binds)
                    return Int(
                        try await connection.query(query, logger: logger).collect().first?.decode(Int64.self) ?? 0)
                }
                return DataCounts(
                    sightings: try await delete("sighting"), events: try await delete("event"),
                    latestFixes: try await delete("device"), visits: try await delete("visit"))
            }
        }
    }

    package func closeVisits(ids: [Int64], checkOut: Double?, closedAt: Double) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try await mapped {
            Int(
                try await client.query(
                    """
                    WITH closed AS (UPDATE visit SET check_out = COALESCE(\(checkOut), check_in), reason = 'lost',
                    closed_at = \(closedAt) WHERE id = ANY(\(ids)) AND check_out IS NULL RETURNING 1)
                    SELECT COUNT(*) FROM closed
                    """, logger: logger
                ).collect().first?.decode(Int64.self) ?? 0)
        }
    }

    package func pruneLatestFixes() async throws -> [ExpiredDevice] {
        try await mapped {
            try await client.query(
                """
                DELETE FROM device WHERE t < COALESCE(
                    (SELECT e.t FROM event e WHERE e.venue = device.venue ORDER BY e.id LIMIT 1), 1e308)
                RETURNING venue, device
                """, logger: logger
            ).collect().map { row in
                let (venue, device) = try row.decode((String, String).self)
                return ExpiredDevice(venue: venue, device: device)
            }
        }
    }
}

extension PostgresStore {
    package func serverSecret(named name: String, orNew candidate: Data) async throws -> Data {
        let now = Date().timeIntervalSince1970
        return try await mapped {
            try await client.query(
                """
                INSERT INTO server_secret (name, value, created_at) VALUES (\(name), \(candidate), \(now))
                ON CONFLICT (name) DO NOTHING
                """, logger: logger)
            guard
                let row = try await client.query(
                    "SELECT value FROM server_secret WHERE name = \(name)", logger: logger
                ).collect().first
            else { throw StoreError("the secret '\(name)' was not stored") }
            return try row.decode(Data.self)
        }
    }
}
