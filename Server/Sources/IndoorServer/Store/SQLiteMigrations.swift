import Foundation
import GRDB

/// The schema of ``SQLiteStore``, as append-only migrations written in SQL.
///
/// A migration, once shipped, is never changed: a new schema change is a new migration appended at the end.
enum SQLiteMigrations {
    /// The identifier of the first migration; a database that has it is an Indoor database.
    static let first = "v1-venues-sightings-events-visits-keys"

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(first) { db in
            try db.execute(
                sql: """
                    CREATE TABLE venue (
                        id TEXT PRIMARY KEY NOT NULL,
                        json BLOB NOT NULL,
                        updatedAt REAL NOT NULL
                    );
                    CREATE TABLE sighting (
                        id INTEGER PRIMARY KEY,
                        venue TEXT NOT NULL,
                        t REAL NOT NULL,
                        device TEXT NOT NULL,
                        node TEXT,
                        beacon TEXT,
                        rssi REAL NOT NULL,
                        tx REAL,
                        receivedAt REAL NOT NULL
                    );
                    CREATE INDEX sighting_venue_t ON sighting (venue, t);
                    CREATE TABLE event (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        venue TEXT NOT NULL,
                        type TEXT NOT NULL,
                        t REAL NOT NULL,
                        device TEXT NOT NULL,
                        json BLOB NOT NULL
                    );
                    CREATE INDEX event_venue_id ON event (venue, id);
                    CREATE TABLE device (
                        venue TEXT NOT NULL,
                        device TEXT NOT NULL,
                        t REAL NOT NULL,
                        fix BLOB NOT NULL,
                        PRIMARY KEY (venue, device)
                    );
                    CREATE TABLE visit (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        venue TEXT NOT NULL,
                        zone TEXT NOT NULL,
                        zoneName TEXT NOT NULL,
                        device TEXT NOT NULL,
                        trigger TEXT NOT NULL,
                        checkIn REAL NOT NULL,
                        checkOut REAL,
                        departure REAL,
                        dwell REAL,
                        reason TEXT
                    );
                    CREATE INDEX visit_venue_id ON visit (venue, id);
                    CREATE INDEX visit_open ON visit (venue, zone, device) WHERE checkOut IS NULL;
                    CREATE TABLE apiKey (
                        hash TEXT PRIMARY KEY NOT NULL,
                        kind TEXT NOT NULL,
                        label TEXT NOT NULL,
                        createdAt REAL NOT NULL
                    );
                    """)
        }
        // When each event was stored and each visit closed (wall clock), for retention. Rows from before are
        // stamped with the upgrade's time, so they are kept a full retention from then.
        migrator.registerMigration("v2-event-storedAt-visit-closedAt") { db in
            let now = Date().timeIntervalSince1970
            try db.execute(
                sql: """
                    ALTER TABLE event ADD COLUMN storedAt REAL;
                    ALTER TABLE visit ADD COLUMN closedAt REAL;
                    UPDATE event SET storedAt = ?;
                    UPDATE visit SET closedAt = ? WHERE checkOut IS NOT NULL;
                    CREATE INDEX visit_closedAt ON visit (closedAt) WHERE closedAt IS NOT NULL;
                    """,
                arguments: [now, now])
        }
        // Each floor's plan image, stored with its venue (`PUT /v1/venues/{id}/floors/{level}/image`).
        migrator.registerMigration("v3-floorImage") { db in
            try db.execute(
                sql: """
                    CREATE TABLE floorImage (
                        venue TEXT NOT NULL,
                        level INTEGER NOT NULL,
                        contentType TEXT NOT NULL,
                        data BLOB NOT NULL,
                        placement BLOB,
                        updatedAt REAL NOT NULL,
                        PRIMARY KEY (venue, level)
                    );
                    """)
        }
        // Keys with a lifecycle (a public id, who made them, last use, expiry, venues) and the audit log. Keys given
        // on the command line before are marked as the operator's, so that a start without them retires them.
        migrator.registerMigration(SQLiteMigrations.keyLifecycleAudit) { db in
            try db.execute(
                sql: """
                    ALTER TABLE apiKey ADD COLUMN id TEXT;
                    ALTER TABLE apiKey ADD COLUMN origin TEXT NOT NULL DEFAULT 'api';
                    ALTER TABLE apiKey ADD COLUMN lastUsedAt REAL;
                    ALTER TABLE apiKey ADD COLUMN expiresAt REAL;
                    ALTER TABLE apiKey ADD COLUMN venues TEXT;
                    UPDATE apiKey SET id = lower(hex(randomblob(8)));
                    UPDATE apiKey SET origin = 'operator' WHERE label LIKE '% (command line)';
                    UPDATE apiKey SET origin = 'generated' WHERE label = 'admin (generated)' OR label LIKE '% (demo)';
                    CREATE UNIQUE INDEX apiKey_id ON apiKey (id);
                    CREATE TABLE audit (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        at REAL NOT NULL,
                        keyId TEXT,
                        keyLabel TEXT,
                        method TEXT NOT NULL,
                        route TEXT NOT NULL,
                        path TEXT NOT NULL,
                        venue TEXT,
                        device TEXT,
                        address TEXT,
                        status INTEGER NOT NULL
                    );
                    CREATE INDEX audit_at ON audit (at);
                    """)
        }
        // Secrets the server makes once and keeps: the key of the devices' pseudonyms (docs/PRIVACY.md).
        migrator.registerMigration("v6-serverSecret") { db in
            try db.execute(
                sql: """
                    CREATE TABLE serverSecret (
                        name TEXT PRIMARY KEY NOT NULL,
                        value BLOB NOT NULL,
                        createdAt REAL NOT NULL
                    );
                    """)
        }
        // Each venue's site survey: recordings of one device each, their marks and a copy of the device's sightings
        // while the recording ran (docs/SURVEY.md), kept whatever the sightings' retention.
        migrator.registerMigration(SQLiteMigrations.survey) { db in
            try db.execute(
                sql: """
                    CREATE TABLE surveyRecording (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        venue TEXT NOT NULL,
                        device TEXT NOT NULL,
                        source TEXT NOT NULL,
                        startedAt REAL NOT NULL,
                        stoppedAt REAL,
                        sightings INTEGER NOT NULL DEFAULT 0,
                        dropped INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE INDEX surveyRecording_venue ON surveyRecording (venue, id);
                    CREATE INDEX surveyRecording_device ON surveyRecording (device);
                    CREATE TABLE surveyMark (
                        recording INTEGER NOT NULL,
                        seq INTEGER NOT NULL,
                        t REAL NOT NULL,
                        x REAL NOT NULL,
                        y REAL NOT NULL,
                        floor INTEGER,
                        hold REAL NOT NULL,
                        PRIMARY KEY (recording, seq)
                    );
                    CREATE TABLE surveySighting (
                        id INTEGER PRIMARY KEY,
                        recording INTEGER NOT NULL,
                        t REAL NOT NULL,
                        node TEXT,
                        beacon TEXT,
                        rssi REAL NOT NULL,
                        tx REAL
                    );
                    CREATE INDEX surveySighting_recording ON surveySighting (recording, id);
                    """)
        }
        // History and reports (`GET /v1/venues/{id}/history`, `…/reports/zones`): a venue's fixes in time order
        // (then device: the order of the history's pages, read from the index without sorting), and its visits by
        // check-in and by check-out (the visits of a period).
        migrator.registerMigration(SQLiteMigrations.historyIndexes) { db in
            try db.execute(
                sql: """
                    CREATE INDEX event_fix_venue_t ON event (venue, t, device) WHERE type = 'fix';
                    CREATE INDEX visit_venue_checkIn ON visit (venue, checkIn);
                    CREATE INDEX visit_venue_checkOut ON visit (venue, checkOut);
                    """)
        }
        // Webhooks (docs/WEBHOOKS.md): each hook with its secret (kept, since signing needs it), health and lease;
        // its cursor per venue (the last event delivered); its latest attempts.
        migrator.registerMigration(SQLiteMigrations.webhooks) { db in
            try db.execute(
                sql: """
                    CREATE TABLE webhook (
                        id TEXT PRIMARY KEY NOT NULL,
                        url TEXT NOT NULL,
                        events TEXT NOT NULL,
                        venues TEXT,
                        secret TEXT NOT NULL,
                        createdAt REAL NOT NULL,
                        startCursor INTEGER NOT NULL,
                        failingSince REAL,
                        disabledReason TEXT,
                        owner TEXT,
                        leaseExpires REAL
                    );
                    CREATE TABLE webhookCursor (
                        hook TEXT NOT NULL,
                        venue TEXT NOT NULL,
                        cursor INTEGER NOT NULL,
                        PRIMARY KEY (hook, venue)
                    );
                    CREATE TABLE webhookDelivery (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        hook TEXT NOT NULL,
                        at REAL NOT NULL,
                        status INTEGER,
                        error TEXT,
                        firstEvent INTEGER NOT NULL,
                        lastEvent INTEGER NOT NULL,
                        events INTEGER NOT NULL,
                        duration REAL NOT NULL
                    );
                    CREATE INDEX webhookDelivery_hook ON webhookDelivery (hook, id);
                    """)
        }
        return migrator
    }

    /// The migration of the indexes of history and reports (the same identifier in ``PostgresMigrations``).
    static let historyIndexes = "v8-history-report-indexes"

    /// The migration of keys with a lifecycle and the audit log (the same identifier in ``PostgresMigrations``).
    static let keyLifecycleAudit = "v5-key-lifecycle-audit"

    /// The migration of webhooks (the same identifier in ``PostgresMigrations``).
    static let webhooks = "v9-webhooks"

    /// The migration of the site surveys (the same identifier in ``PostgresMigrations``).
    static let survey = "v7-survey"
}
