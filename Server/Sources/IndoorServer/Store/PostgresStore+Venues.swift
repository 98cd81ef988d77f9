import Foundation
import PostgresNIO

extension PostgresStore {
    package func venues() async throws -> [StoredVenue] {
        try await mapped {
            try await client.query("SELECT id, json FROM venue ORDER BY id", logger: logger).collect().map {
                let (id, json) = try $0.decode((String, Data).self)
                return StoredVenue(id: id, json: json)
            }
        }
    }

    package func venue(id: String) async throws -> StoredVenue? {
        try await mapped {
            try await client.query("SELECT id, json FROM venue WHERE id = \(id)", logger: logger).collect().first.map {
                let (id, json) = try $0.decode((String, Data).self)
                return StoredVenue(id: id, json: json)
            }
        }
    }

    @discardableResult package func putVenue(_ venue: StoredVenue) async throws -> Bool {
        let now = Date().timeIntervalSince1970
        return try await mapped {
            // The CTE sees the table as it was before the upsert.
            let rows = try await client.query(
                """
                WITH old AS (SELECT 1 FROM venue WHERE id = \(venue.id))
                INSERT INTO venue (id, json, updated_at) VALUES (\(venue.id), \(venue.json), \(now))
                ON CONFLICT (id) DO UPDATE SET json = EXCLUDED.json, updated_at = EXCLUDED.updated_at
                RETURNING NOT EXISTS (SELECT 1 FROM old)
                """, logger: logger
            ).collect()
            return try rows.first?.decode(Bool.self) ?? false
        }
    }

    @discardableResult package func deleteVenue(id: String) async throws -> Bool {
        try await mapped {
            try await client.withTransaction(logger: logger) { connection in
                let deleted = try await connection.query(
                    "DELETE FROM venue WHERE id = \(id) RETURNING id", logger: logger
                ).collect()
                try await connection.query("DELETE FROM device WHERE venue = \(id)", logger: logger)
                try await connection.query("DELETE FROM floor_image WHERE venue = \(id)", logger: logger)
                _ = try await Self.deleteSurvey(venue: id, device: nil, on: connection, logger: logger)
                return !deleted.isEmpty
            }
        }
    }

    package func floorImage(venue: String, level: Int) async throws -> StoredFloorImage? {
        try await mapped {
            try await client.query(
                """
                SELECT content_type, data, placement, updated_at FROM floor_image
                WHERE venue = \(venue) AND level = \(level)
                """, logger: logger
            ).collect().first.map {
                let (type, data, placement, updatedAt) = try $0.decode((String, Data, Data?, Double).self)
                return StoredFloorImage(
                    venue: venue, level: level, contentType: type, data: data, placement: placement,
                    updatedAt: updatedAt)
            }
        }
    }

    @discardableResult package func putFloorImage(_ image: StoredFloorImage) async throws -> Bool {
        try await mapped {
            // The CTE sees the table as it was before the upsert.
            let rows = try await client.query(
                """
                WITH old AS (SELECT 1 FROM floor_image WHERE venue = \(image.venue) AND level = \(image.level))
                INSERT INTO floor_image (venue, level, content_type, data, placement, updated_at)
                VALUES (\(image.venue), \(image.level), \(image.contentType), \(image.data), \(image.placement),
                    \(image.updatedAt))
                ON CONFLICT (venue, level) DO UPDATE SET content_type = EXCLUDED.content_type, data = EXCLUDED.data,
                    placement = EXCLUDED.placement, updated_at = EXCLUDED.updated_at
                RETURNING NOT EXISTS (SELECT 1 FROM old)
                """, logger: logger
            ).collect()
            return try rows.first?.decode(Bool.self) ?? false
        }
    }

    @discardableResult package func deleteFloorImage(venue: String, level: Int) async throws -> Bool {
        try await mapped {
            !(try await client.query(
                "DELETE FROM floor_image WHERE venue = \(venue) AND level = \(level) RETURNING venue", logger: logger
            ).collect().isEmpty)
        }
    }
}
