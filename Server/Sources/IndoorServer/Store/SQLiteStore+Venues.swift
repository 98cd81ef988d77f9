import Foundation
import GRDB

extension SQLiteStore {
    public func venues() async throws -> [StoredVenue] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, json FROM venue ORDER BY id").map {
                StoredVenue(id: $0["id"], json: $0["json"])
            }
        }
    }

    public func venue(id: String) async throws -> StoredVenue? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT id, json FROM venue WHERE id = ?", arguments: [id]).map {
                StoredVenue(id: $0["id"], json: $0["json"])
            }
        }
    }

    @discardableResult public func putVenue(_ venue: StoredVenue) async throws -> Bool {
        try await pool.write { db in
            let existed =
                try Bool.fetchOne(db, sql: "SELECT COUNT(*) > 0 FROM venue WHERE id = ?", arguments: [venue.id])
                ?? false
            try db.execute(
                sql: """
                    INSERT INTO venue (id, json, updatedAt) VALUES (?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET json = excluded.json, updatedAt = excluded.updatedAt
                    """,
                arguments: [venue.id, venue.json, Date().timeIntervalSince1970])
            return !existed
        }
    }

    @discardableResult public func deleteVenue(id: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM venue WHERE id = ?", arguments: [id])
            let deleted = db.changesCount > 0
            try db.execute(sql: "DELETE FROM device WHERE venue = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM floorImage WHERE venue = ?", arguments: [id])
            _ = try Self.deleteSurvey(venue: id, device: nil, db: db)
            return deleted
        }
    }

    public func floorImage(venue: String, level: Int) async throws -> StoredFloorImage? {
        try await pool.read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT contentType, data, placement, updatedAt FROM floorImage WHERE venue = ? AND level = ?",
                arguments: [venue, level]
            ).map { row in
                StoredFloorImage(
                    venue: venue, level: level, contentType: row["contentType"], data: row["data"],
                    placement: row["placement"], updatedAt: row["updatedAt"])
            }
        }
    }

    @discardableResult public func putFloorImage(_ image: StoredFloorImage) async throws -> Bool {
        try await pool.write { db in
            let existed =
                try Bool.fetchOne(
                    db, sql: "SELECT COUNT(*) > 0 FROM floorImage WHERE venue = ? AND level = ?",
                    arguments: [image.venue, image.level]) ?? false
            try db.execute(
                sql: """
                    INSERT INTO floorImage (venue, level, contentType, data, placement, updatedAt)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT(venue, level) DO UPDATE SET contentType = excluded.contentType,
                        data = excluded.data, placement = excluded.placement, updatedAt = excluded.updatedAt
                    """,
                arguments: [
                    image.venue, image.level, image.contentType, image.data, image.placement, image.updatedAt,
                ])
            return !existed
        }
    }

    @discardableResult public func deleteFloorImage(venue: String, level: Int) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM floorImage WHERE venue = ? AND level = ?", arguments: [venue, level])
            return db.changesCount > 0
        }
    }
}
