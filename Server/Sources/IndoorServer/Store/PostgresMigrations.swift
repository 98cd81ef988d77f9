import Foundation
import Logging
import PostgresNIO

/// The schema of ``PostgresStore``, as append-only migrations written in SQL: those of ``SQLiteMigrations``, under the
/// same identifiers, in PostgreSQL's types.
///
/// A migration, once shipped, is never changed: a new schema change is a new migration appended at the end, here and
/// (when it applies) in ``SQLiteMigrations``. The table `indoor_migrations` lists those applied. All pending
/// migrations run in one transaction under an advisory lock, so two servers starting at once migrate once; a database
/// that lists a migration this version does not know (a newer Indoor's) is refused, and so is one holding tables of
/// another program.
enum PostgresMigrations {
    /// A migration: its identifier and its SQL statements, run in order.
    struct Migration: Sendable {
        var identifier: String
        var statements: [String]
    }

    /// The key of the advisory lock held while migrating (any number that other programs are unlikely to use).
    static let lockKey: Int64 = 0x1D00_2A11

    static let all: [Migration] = [
        Migration(
            identifier: SQLiteMigrations.first,
            statements: [
                """
                CREATE TABLE venue (
                    id TEXT PRIMARY KEY NOT NULL,
                    json BYTEA NOT NULL,
                    updated_at DOUBLE PRECISION NOT NULL
                )
                """,
                """
                CREATE TABLE sighting (
                    id BIGSERIAL PRIMARY KEY,
                    venue TEXT NOT NULL,
                    t DOUBLE PRECISION NOT NULL,
                    device TEXT NOT NULL,
                    node TEXT,
                    beacon TEXT,
                    rssi DOUBLE PRECISION NOT NULL,
                    tx DOUBLE PRECISION,
                    received_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX sighting_venue_t ON sighting (venue, t)",
                """
                CREATE TABLE event (
                    id BIGSERIAL PRIMARY KEY,
                    venue TEXT NOT NULL,
                    type TEXT NOT NULL,
                    t DOUBLE PRECISION NOT NULL,
                    device TEXT NOT NULL,
                    json JSONB NOT NULL
                )
                """,
                "CREATE INDEX event_venue_id ON event (venue, id)",
                """
                CREATE TABLE device (
                    venue TEXT NOT NULL,
                    device TEXT NOT NULL,
                    t DOUBLE PRECISION NOT NULL,
                    fix JSONB NOT NULL,
                    PRIMARY KEY (venue, device)
                )
                """,
                """
                CREATE TABLE visit (
                    id BIGSERIAL PRIMARY KEY,
                    venue TEXT NOT NULL,
                    zone TEXT NOT NULL,
                    zone_name TEXT NOT NULL,
                    device TEXT NOT NULL,
                    trigger TEXT NOT NULL,
                    check_in DOUBLE PRECISION NOT NULL,
                    check_out DOUBLE PRECISION,
                    departure DOUBLE PRECISION,
                    dwell DOUBLE PRECISION,
                    reason TEXT
                )
                """,
                "CREATE INDEX visit_venue_id ON visit (venue, id)",
                // Never two open visits of one device in one zone.
                "CREATE UNIQUE INDEX visit_open ON visit (venue, zone, device) WHERE check_out IS NULL",
                """
                CREATE TABLE api_key (
                    hash TEXT PRIMARY KEY NOT NULL,
                    kind TEXT NOT NULL,
                    label TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL
                )
                """,
            ]),
        // When each event was stored and each visit closed (wall clock), for retention; rows from before are stamped
        // with the upgrade's time, as in SQLite.
        Migration(
            identifier: "v2-event-storedAt-visit-closedAt",
            statements: [
                "ALTER TABLE event ADD COLUMN stored_at DOUBLE PRECISION",
                "ALTER TABLE visit ADD COLUMN closed_at DOUBLE PRECISION",
                "UPDATE event SET stored_at = extract(epoch FROM clock_timestamp())",
                "UPDATE visit SET closed_at = extract(epoch FROM clock_timestamp()) WHERE check_out IS NOT NULL",
                "CREATE INDEX visit_closed_at ON visit (closed_at) WHERE closed_at IS NOT NULL",
            ]),
        // Each floor's plan image, stored with its venue, as in SQLite.
        Migration(
            identifier: "v3-floorImage",
            statements: [
                """
                CREATE TABLE floor_image (
                    venue TEXT NOT NULL,
                    level BIGINT NOT NULL,
                    content_type TEXT NOT NULL,
                    data BYTEA NOT NULL,
                    placement BYTEA,
                    updated_at DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (venue, level)
                )
                """
            ]),
        // Several instances on one database (PostgreSQL only): who is alive, and each venue's owner by lease.
        Migration(
            identifier: "v4-cluster",
            statements: [
                """
                CREATE TABLE cluster_instance (
                    id TEXT PRIMARY KEY NOT NULL,
                    url TEXT NOT NULL,
                    seen DOUBLE PRECISION NOT NULL
                )
                """,
                """
                CREATE TABLE venue_lease (
                    venue TEXT PRIMARY KEY NOT NULL,
                    owner TEXT NOT NULL,
                    epoch BIGINT NOT NULL,
                    expires DOUBLE PRECISION NOT NULL
                )
                """,
            ]),
        // Keys with a lifecycle and the audit log, as in SQLite.
        Migration(
            identifier: SQLiteMigrations.keyLifecycleAudit,
            statements: [
                "ALTER TABLE api_key ADD COLUMN id TEXT",
                "ALTER TABLE api_key ADD COLUMN origin TEXT NOT NULL DEFAULT 'api'",
                "ALTER TABLE api_key ADD COLUMN last_used_at DOUBLE PRECISION",
                "ALTER TABLE api_key ADD COLUMN expires_at DOUBLE PRECISION",
                "ALTER TABLE api_key ADD COLUMN venues TEXT",
                "UPDATE api_key SET id = substr(md5(random()::text || clock_timestamp()::text || hash), 1, 16)",
                "UPDATE api_key SET origin = 'operator' WHERE label LIKE '% (command line)'",
                "UPDATE api_key SET origin = 'generated' WHERE label = 'admin (generated)' OR label LIKE '% (demo)'",
                "CREATE UNIQUE INDEX api_key_id ON api_key (id)",
                """
                CREATE TABLE audit (
                    id BIGSERIAL PRIMARY KEY,
                    at DOUBLE PRECISION NOT NULL,
                    key_id TEXT,
                    key_label TEXT,
                    method TEXT NOT NULL,
                    route TEXT NOT NULL,
                    path TEXT NOT NULL,
                    venue TEXT,
                    device TEXT,
                    address TEXT,
                    status INTEGER NOT NULL
                )
                """,
                "CREATE INDEX audit_at ON audit (at)",
            ]),
        // Secrets the server makes once and keeps, as in SQLite.
        Migration(
            identifier: "v6-serverSecret",
            statements: [
                """
                CREATE TABLE server_secret (
                    name TEXT PRIMARY KEY NOT NULL,
                    value BYTEA NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL
                )
                """
            ]),
        // Each venue's site survey, as in SQLite.
        Migration(
            identifier: SQLiteMigrations.survey,
            statements: [
                """
                CREATE TABLE survey_recording (
                    id BIGSERIAL PRIMARY KEY,
                    venue TEXT NOT NULL,
                    device TEXT NOT NULL,
                    source TEXT NOT NULL,
                    started_at DOUBLE PRECISION NOT NULL,
                    stopped_at DOUBLE PRECISION,
                    sightings BIGINT NOT NULL DEFAULT 0,
                    dropped BIGINT NOT NULL DEFAULT 0
                )
                """,
                "CREATE INDEX survey_recording_venue ON survey_recording (venue, id)",
                "CREATE INDEX survey_recording_device ON survey_recording (device)",
                """
                CREATE TABLE survey_mark (
                    recording BIGINT NOT NULL,
                    seq BIGINT NOT NULL,
                    t DOUBLE PRECISION NOT NULL,
                    x DOUBLE PRECISION NOT NULL,
                    y DOUBLE PRECISION NOT NULL,
                    floor BIGINT,
                    hold DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (recording, seq)
                )
                """,
                """
                CREATE TABLE survey_sighting (
                    id BIGSERIAL PRIMARY KEY,
                    recording BIGINT NOT NULL,
                    t DOUBLE PRECISION NOT NULL,
                    node TEXT,
                    beacon TEXT,
                    rssi DOUBLE PRECISION NOT NULL,
                    tx DOUBLE PRECISION
                )
                """,
                "CREATE INDEX survey_sighting_recording ON survey_sighting (recording, id)",
            ]),
        // The indexes of history and reports, as in SQLite (the fixes' index ends with the id, which SQLite's
        // indexes carry anyway).
        Migration(
            identifier: SQLiteMigrations.historyIndexes,
            statements: [
                "CREATE INDEX event_fix_venue_t ON event (venue, t, device, id) WHERE type = 'fix'",
                "CREATE INDEX visit_venue_check_in ON visit (venue, check_in)",
                "CREATE INDEX visit_venue_check_out ON visit (venue, check_out)",
            ]),
        // Webhooks, as in SQLite.
        Migration(
            identifier: SQLiteMigrations.webhooks,
            statements: [
                """
                CREATE TABLE webhook (
                    id TEXT PRIMARY KEY NOT NULL,
                    url TEXT NOT NULL,
                    events TEXT NOT NULL,
                    venues TEXT,
                    secret TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    start_cursor BIGINT NOT NULL,
                    failing_since DOUBLE PRECISION,
                    disabled_reason TEXT,
                    owner TEXT,
                    lease_expires DOUBLE PRECISION
                )
                """,
                """
                CREATE TABLE webhook_cursor (
                    hook TEXT NOT NULL,
                    venue TEXT NOT NULL,
                    cursor BIGINT NOT NULL,
                    PRIMARY KEY (hook, venue)
                )
                """,
                """
                CREATE TABLE webhook_delivery (
                    id BIGSERIAL PRIMARY KEY,
                    hook TEXT NOT NULL,
                    at DOUBLE PRECISION NOT NULL,
                    status BIGINT,
                    error TEXT,
                    first_event BIGINT NOT NULL,
                    last_event BIGINT NOT NULL,
                    events BIGINT NOT NULL,
                    duration DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX webhook_delivery_hook ON webhook_delivery (hook, id)",
            ]),
        // PostgreSQL only: a fix's JSON also as the server wrote it (the bytes SQLite keeps in `json`), which the
        // history's pages answer as they are instead of taking JSONB apart (docs/notes/2026-11-30-history-fix-json.md).
        // Fixes stored before it have none, and are read as before.
        Migration(
            identifier: fixJSONText,
            statements: ["ALTER TABLE event ADD COLUMN fix_json TEXT"]),
    ]

    /// The migration of `event.fix_json` (PostgreSQL only: SQLite keeps the written JSON in `json`).
    static let fixJSONText = "v10-postgres-fix-json-text"

    /// Brings the schema of the database `connection` is on up to date.
    /// - Parameters:
    ///   - migrations: The migrations this version knows, oldest first (``all`` but in tests).
    ///   - name: The database, as messages name it.
    /// - Returns: The identifiers of the migrations applied now (none when the schema was up to date).
    /// - Throws: ``StoreError`` when the database belongs to another program or to a newer Indoor.
    @discardableResult
    static func migrate(
        _ connection: PostgresConnection, migrations: [Migration] = all, name: String, logger: Logger
    ) async throws -> [String] {
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
            var tables: [String] = []
            for try await table in try await connection.query(
                "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()",
                logger: logger
            ).decode(String.self) {
                tables.append(table)
            }
            var applied: [String] = []
            if tables.contains("indoor_migrations") {
                for try await identifier in try await connection.query(
                    "SELECT identifier FROM indoor_migrations ORDER BY applied_at, identifier", logger: logger
                ).decode(String.self) {
                    applied.append(identifier)
                }
            } else if !tables.isEmpty {
                throw StoreError(
                    "the database \(name) holds tables of another program "
                        + "(\(tables.sorted().prefix(5).joined(separator: ", "))); give an empty database or an "
                        + "Indoor one")
            }
            let known = Set(migrations.map(\.identifier))
            if let unknown = applied.first(where: { !known.contains($0) }) {
                throw StoreError(
                    "the database \(name) was brought to a newer schema (migration '\(unknown)') than this indoor "
                        + "knows; run the newer indoor, or give another database")
            }
            if tables.isEmpty {
                try await connection.query(
                    """
                    CREATE TABLE indoor_migrations (
                        identifier TEXT PRIMARY KEY NOT NULL,
                        applied_at DOUBLE PRECISION NOT NULL
                    )
                    """, logger: logger)
            }
            var done: [String] = []
            for migration in migrations where !applied.contains(migration.identifier) {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query(
                    """
                    INSERT INTO indoor_migrations (identifier, applied_at)
                    VALUES (\(migration.identifier), extract(epoch FROM clock_timestamp()))
                    """, logger: logger)
                done.append(migration.identifier)
            }
            return done
        }
    }
}
