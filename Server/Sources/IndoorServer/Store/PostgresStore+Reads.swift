import Foundation
import IndoorGeofencing
import IndoorModel
import PostgresNIO

extension PostgresStore {
    package func latestFix(venue: String, device: String) async throws -> Fix? {
        try await mapped {
            try await client.query(
                "SELECT fix::text FROM device WHERE venue = \(venue) AND device = \(device)", logger: logger
            ).collect().first.map { try JSONDecoder().decode(Fix.self, from: Data(try $0.decode(String.self).utf8)) }
        }
    }

    package func devices(venue: String, since: Double) async throws -> [Fix] {
        try await mapped {
            let decoder = JSONDecoder()
            return try await client.query(
                "SELECT fix::text FROM device WHERE venue = \(venue) AND t >= \(since) ORDER BY device",
                logger: logger
            ).collect().map { try decoder.decode(Fix.self, from: Data(try $0.decode(String.self).utf8)) }
        }
    }

    package func visits(_ query: VisitQuery) async throws -> VisitPage {
        var sql = """
            SELECT id, venue, zone, zone_name, device, trigger, check_in, check_out, departure, dwell, reason
            FROM visit WHERE venue = $1
            """
        var binds = PostgresBindings()
        binds.append(query.venue)
        if let zone = query.zone {
            binds.append(zone)
            sql += " AND zone = $\(binds.count)"
        }
        if let device = query.device {
            binds.append(device)
            sql += " AND device = $\(binds.count)"
        }
        if let from = query.from {
            binds.append(from)
            sql += " AND (check_out IS NULL OR check_out >= $\(binds.count))"
        }
        if let to = query.to {
            binds.append(to)
            sql += " AND check_in < $\(binds.count)"
        }
        if let before = query.before {
            binds.append(before)
            sql += " AND id < $\(binds.count)"
        }
        if query.openOnly { sql += " AND check_out IS NULL" }
        binds.append(Int64(query.limit) + 1)
        sql += " ORDER BY id DESC LIMIT $\(binds.count)"
        let statement = PostgresQuery(unsafeSQL: sql, binds: binds)
        let rows = try await mapped { try await client.query(statement, logger: logger).collect() }
        let visits = try rows.prefix(query.limit).map { row in
            let (id, venue, zone, zoneName, device, trigger, checkIn, checkOut, departure, dwell, reason) =
                try row.decode(
                    (Int64, String, String, String, String, String, Double, Double?, Double?, Double?, String?).self)
            return Visit(
                id: id, venue: venue, zone: zone, zoneName: zoneName, device: device, trigger: trigger,
                checkIn: checkIn, checkOut: checkOut, departure: departure, dwell: dwell, reason: reason)
        }
        return VisitPage(visits: visits, nextBefore: rows.count > query.limit ? visits.last?.id : nil)
    }

    package func events(venue: String, after: Int64, limit: Int) async throws -> [StoredEvent] {
        let rows = try await mapped {
            try await client.query(
                """
                SELECT id, type, json::text FROM event WHERE venue = \(venue) AND id > \(after) ORDER BY id
                LIMIT \(Int64(limit))
                """, logger: logger
            ).collect()
        }
        let decoder = JSONDecoder()
        return try rows.map { row in
            let (id, type, text) = try row.decode((Int64, String, String).self)
            let json = Data(text.utf8)
            let event = try ServerEvent.decode(type: type, json: json, decoder: decoder)
            return StoredEvent(id: id, venue: venue, event: event)
        }
    }

    package func latestEventID() async throws -> Int64 {
        try await mapped {
            try await client.query("SELECT COALESCE(MAX(id), 0) FROM event", logger: logger).collect().first?.decode(
                Int64.self) ?? 0
        }
    }

    package func sightingCount(venue: String) async throws -> Int {
        try await mapped {
            Int(
                try await client.query("SELECT COUNT(*) FROM sighting WHERE venue = \(venue)", logger: logger)
                    .collect().first?.decode(Int64.self) ?? 0)
        }
    }

    package func recentSightings(venue: String, seconds: Double, limit: Int) async throws -> [ReceivedSighting] {
        let rows = try await mapped {
            try await client.query(
                """
                SELECT t, device, node, beacon, rssi, tx, received_at FROM sighting
                WHERE venue = \(venue) AND t >= (SELECT MAX(t) FROM sighting WHERE venue = \(venue)) - \(seconds)
                ORDER BY t DESC, id DESC LIMIT \(Int64(limit))
                """, logger: logger
            ).collect()
        }
        return try rows.reversed().map { row in
            let (time, device, node, beacon, rssi, txPower, receivedAt) = try row.decode(
                (Double, String, String?, String?, Double, Double?, Double).self)
            return try ReceivedSighting(
                time: time, device: device, node: node, beacon: beacon, rssi: rssi, txPower: txPower,
                receivedAt: receivedAt)
        }
    }
}
