import Foundation
import GRDB

extension SQLiteStore {
    public func addWebhook(_ hook: StoredWebhook) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO webhook (id, url, events, venues, secret, createdAt, startCursor)
                    VALUES (?,?,?,?,?,?,?)
                    """,
                arguments: [
                    hook.id, hook.url, hook.eventsJSON, hook.venuesJSON, hook.secret, hook.created, hook.startCursor,
                ])
        }
    }

    public func webhooks() async throws -> [StoredWebhook] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "\(Self.webhookColumns) ORDER BY createdAt, id").map(Self.webhook)
        }
    }

    public func webhook(id: String) async throws -> StoredWebhook? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "\(Self.webhookColumns) WHERE id = ?", arguments: [id]).map(Self.webhook)
        }
    }

    public func deleteWebhook(id: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM webhook WHERE id = ?", arguments: [id])
            let deleted = db.changesCount > 0
            try db.execute(sql: "DELETE FROM webhookCursor WHERE hook = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM webhookDelivery WHERE hook = ?", arguments: [id])
            return deleted
        }
    }

    public func webhookCursors(id: String) async throws -> [String: Int64] {
        try await pool.read { db in
            var cursors: [String: Int64] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT venue, cursor FROM webhookCursor WHERE hook = ?", arguments: [id])
            {
                cursors[row["venue"]] = row["cursor"]
            }
            return cursors
        }
    }

    public func advanceWebhook(id: String, cursors: [String: Int64], owner: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE webhook SET failingSince = NULL WHERE id = ? AND owner = ?", arguments: [id, owner])
            guard db.changesCount > 0 else { return false }
            for (venue, cursor) in cursors.sorted(by: { $0.key < $1.key }) {
                try db.execute(
                    sql: """
                        INSERT INTO webhookCursor (hook, venue, cursor) VALUES (?,?,?)
                        ON CONFLICT (hook, venue) DO UPDATE SET cursor = MAX(cursor, excluded.cursor)
                        """, arguments: [id, venue, cursor])
            }
            return true
        }
    }

    public func markWebhookFailing(id: String, failingSince: Double, disabledReason: String?) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE webhook SET failingSince = COALESCE(failingSince, ?),
                    disabledReason = COALESCE(disabledReason, ?) WHERE id = ?
                    """, arguments: [failingSince, disabledReason, id])
        }
    }

    public func claimWebhook(id: String, owner: String, seconds: Double) async throws -> Bool {
        let now = Date().timeIntervalSince1970
        return try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE webhook SET owner = ?, leaseExpires = ?
                    WHERE id = ? AND (owner IS NULL OR owner = ? OR leaseExpires <= ?)
                    """, arguments: [owner, now + seconds, id, owner, now])
            return db.changesCount > 0
        }
    }

    public func releaseWebhook(id: String, owner: String) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE webhook SET leaseExpires = 0 WHERE id = ? AND owner = ?", arguments: [id, owner])
        }
    }

    public func recordWebhookDelivery(_ delivery: WebhookDelivery, keeping: Int) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO webhookDelivery (hook, at, status, error, firstEvent, lastEvent, events, duration)
                    VALUES (?,?,?,?,?,?,?,?)
                    """,
                arguments: [
                    delivery.hook, delivery.time, delivery.status, delivery.error, delivery.firstEvent,
                    delivery.lastEvent, delivery.events, delivery.durationSeconds,
                ])
            try db.execute(
                sql: """
                    DELETE FROM webhookDelivery WHERE hook = ? AND id <= (
                        SELECT id FROM webhookDelivery WHERE hook = ? ORDER BY id DESC LIMIT 1 OFFSET ?)
                    """, arguments: [delivery.hook, delivery.hook, max(1, keeping)])
        }
    }

    public func webhookDeliveries(id: String, limit: Int) async throws -> [WebhookDelivery] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT hook, at, status, error, firstEvent, lastEvent, events, duration FROM webhookDelivery
                    WHERE hook = ? ORDER BY id DESC LIMIT ?
                    """, arguments: [id, limit]
            ).map { row in
                WebhookDelivery(
                    hook: row["hook"], time: row["at"], status: row["status"], error: row["error"],
                    firstEvent: row["firstEvent"], lastEvent: row["lastEvent"], events: row["events"],
                    durationSeconds: row["duration"])
            }
        }
    }

    private static let webhookColumns = """
        SELECT id, url, events, venues, secret, createdAt, startCursor, failingSince, disabledReason FROM webhook
        """

    private static func webhook(_ row: Row) -> StoredWebhook {
        StoredWebhook(
            id: row["id"], url: row["url"], events: StoredWebhook.list(json: row["events"]) ?? [],
            venues: StoredWebhook.list(json: row["venues"]), secret: row["secret"], created: row["createdAt"],
            startCursor: row["startCursor"], failingSince: row["failingSince"], disabledReason: row["disabledReason"])
    }
}
