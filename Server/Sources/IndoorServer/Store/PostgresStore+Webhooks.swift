import Foundation
import PostgresNIO

extension PostgresStore {
    /// The database's clock, Unix seconds, in SQL.
    private static let clock = "extract(epoch FROM clock_timestamp())"

    package func addWebhook(_ hook: StoredWebhook) async throws {
        try await mapped {
            try await client.query(
                """
                INSERT INTO webhook (id, url, events, venues, secret, created_at, start_cursor)
                VALUES (\(hook.id), \(hook.url), \(hook.eventsJSON), \(hook.venuesJSON), \(hook.secret),
                \(hook.created), \(hook.startCursor))
                """, logger: logger)
        }
    }

    package func webhooks() async throws -> [StoredWebhook] {
        try await mapped {
            try await client.query(
                """
                SELECT id, url, events, venues, secret, created_at, start_cursor, failing_since, disabled_reason
                FROM webhook ORDER BY created_at, id
                """, logger: logger
            ).collect().map(Self.webhook)
        }
    }

    package func webhook(id: String) async throws -> StoredWebhook? {
        try await mapped {
            try await client.query(
                """
                SELECT id, url, events, venues, secret, created_at, start_cursor, failing_since, disabled_reason
                FROM webhook WHERE id = \(id)
                """, logger: logger
            ).collect().first.map(Self.webhook)
        }
    }

    package func deleteWebhook(id: String) async throws -> Bool {
        try await mapped {
            try await client.withTransaction(logger: logger) { connection in
                let deleted =
                    try await connection.query(
                        "DELETE FROM webhook WHERE id = \(id) RETURNING 1", logger: logger
                    ).collect().isEmpty == false
                try await connection.query("DELETE FROM webhook_cursor WHERE hook = \(id)", logger: logger)
                try await connection.query("DELETE FROM webhook_delivery WHERE hook = \(id)", logger: logger)
                return deleted
            }
        }
    }

    package func webhookCursors(id: String) async throws -> [String: Int64] {
        try await mapped {
            var cursors: [String: Int64] = [:]
            for row in try await client.query(
                "SELECT venue, cursor FROM webhook_cursor WHERE hook = \(id)", logger: logger
            ).collect() {
                let (venue, cursor) = try row.decode((String, Int64).self)
                cursors[venue] = cursor
            }
            return cursors
        }
    }

    package func advanceWebhook(id: String, cursors: [String: Int64], owner: String) async throws -> Bool {
        let entries = cursors.sorted { $0.key < $1.key }
        let venues = entries.map(\.key)
        let ids = entries.map(\.value)
        return try await mapped {
            try await client.withTransaction(logger: logger) { connection in
                let held =
                    try await connection.query(
                        """
                        UPDATE webhook SET failing_since = NULL WHERE id = \(id) AND owner = \(owner) RETURNING 1
                        """, logger: logger
                    ).collect().isEmpty == false
                guard held else { return false }
                try await connection.query(
                    """
                    INSERT INTO webhook_cursor (hook, venue, cursor)
                    SELECT \(id), v, c FROM unnest(\(venues)::text[], \(ids)::int8[]) AS given(v, c)
                    ON CONFLICT (hook, venue) DO UPDATE SET cursor = GREATEST(webhook_cursor.cursor, EXCLUDED.cursor)
                    """, logger: logger)
                return true
            }
        }
    }

    package func markWebhookFailing(id: String, failingSince: Double, disabledReason: String?) async throws {
        try await mapped {
            try await client.query(
                """
                UPDATE webhook SET failing_since = COALESCE(failing_since, \(failingSince)),
                disabled_reason = COALESCE(disabled_reason, \(disabledReason)) WHERE id = \(id)
                """, logger: logger)
        }
    }

    package func claimWebhook(id: String, owner: String, seconds: Double) async throws -> Bool {
        try await mapped {
            try await client.query(
                """
                UPDATE webhook SET owner = \(owner), lease_expires = \(unescaped: Self.clock) + \(seconds)
                WHERE id = \(id) AND (owner IS NULL OR owner = \(owner) OR lease_expires <= \(unescaped: Self.clock))
                RETURNING 1
                """, logger: logger
            ).collect().isEmpty == false
        }
    }

    package func releaseWebhook(id: String, owner: String) async throws {
        try await mapped {
            try await client.query(
                "UPDATE webhook SET lease_expires = 0 WHERE id = \(id) AND owner = \(owner)", logger: logger)
        }
    }

    package func recordWebhookDelivery(_ delivery: WebhookDelivery, keeping: Int) async throws {
        let status = delivery.status.map(Int64.init)
        let events = Int64(delivery.events)
        let offset = Int64(max(1, keeping))
        try await mapped {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query(
                    """
                    INSERT INTO webhook_delivery (hook, at, status, error, first_event, last_event, events, duration)
                    VALUES (\(delivery.hook), \(delivery.time), \(status), \(delivery.error), \(delivery.firstEvent),
                    \(delivery.lastEvent), \(events), \(delivery.durationSeconds))
                    """, logger: logger)
                try await connection.query(
                    """
                    DELETE FROM webhook_delivery WHERE hook = \(delivery.hook) AND id <= (
                        SELECT id FROM webhook_delivery WHERE hook = \(delivery.hook) ORDER BY id DESC LIMIT 1
                        OFFSET \(offset))
                    """, logger: logger)
            }
        }
    }

    package func webhookDeliveries(id: String, limit: Int) async throws -> [WebhookDelivery] {
        let limit = Int64(limit)
        return try await mapped {
            try await client.query(
                """
                SELECT hook, at, status, error, first_event, last_event, events, duration FROM webhook_delivery
                WHERE hook = \(id) ORDER BY id DESC LIMIT \(limit)
                """, logger: logger
            ).collect().map { row in
                let (hook, at, status, error, first, last, events, duration) = try row.decode(
                    (String, Double, Int64?, String?, Int64, Int64, Int64, Double).self)
                return WebhookDelivery(
                    hook: hook, time: at, status: status.map(Int.init), error: error, firstEvent: first,
                    lastEvent: last, events: Int(events), durationSeconds: duration)
            }
        }
    }

    private static func webhook(_ row: PostgresRow) throws -> StoredWebhook {
        let (id, url, events, venues, secret, created, start, failing, disabled) = try row.decode(
            (String, String, String, String?, String, Double, Int64, Double?, String?).self)
        return StoredWebhook(
            id: id, url: url, events: StoredWebhook.list(json: events) ?? [], venues: StoredWebhook.list(json: venues),
            secret: secret, created: created, startCursor: start, failingSince: failing, disabledReason: disabled)
    }
}
