import Foundation

/// What a zone report reads from a store: a venue's visits over consecutive buckets of data time.
public struct ZoneReportQuery: Hashable, Sendable {
    /// The venue.
    public var venue: String
    /// The buckets' edges, data time in seconds, increasing and finite: bucket `i` is `edges[i] ..< edges[i + 1]`
    /// (at least two edges).
    public var edges: [Double]
    /// At most this many dwell times are read (``ZoneReportData/dwellsComplete`` says whether there were more).
    public var dwellLimit: Int

    public init(venue: String, edges: [Double], dwellLimit: Int = 1_000_000) {
        self.venue = venue
        self.edges = edges
        self.dwellLimit = dwellLimit
    }

    /// The start of the first bucket.
    var from: Double { edges.first ?? 0 }
    /// The end of the last bucket.
    var to: Double { edges.last ?? 0 }
}

/// A zone's counts in one bucket, as the store's SQL computes them.
///
/// A visit is counted in the bucket it checked in during; its presence (check-in until departure, or check-out for
/// a lost visit, or the venue's newest fix time while it is open) is spread over the buckets it overlaps. Crossings
/// (a geoline, a zone without check-out) count as visits but not as presence.
public struct ZoneBucketCounts: Hashable, Sendable {
    /// The zone's id.
    public var zone: String
    /// The bucket's index in ``ZoneReportQuery/edges``.
    public var bucket: Int
    /// Visits that checked in during the bucket.
    public var visits: Int
    /// Distinct devices among those visits.
    public var devices: Int
    /// The devices' time in the zone within the bucket, summed, seconds (the mean occupancy times the bucket's
    /// length).
    public var presenceSeconds: Double
    /// The most devices in the zone at once during the bucket.
    public var peak: Int

    public init(zone: String, bucket: Int, visits: Int, devices: Int, presenceSeconds: Double, peak: Int) {
        self.zone = zone
        self.bucket = bucket
        self.visits = visits
        self.devices = devices
        self.presenceSeconds = presenceSeconds
        self.peak = peak
    }
}

/// The dwell of one closed visit (not a crossing), for the report's percentiles.
public struct ZoneDwell: Hashable, Sendable {
    /// The zone's id.
    public var zone: String
    /// Check-in, data time, seconds.
    public var checkIn: Double
    /// Seconds inside.
    public var dwell: Double

    public init(zone: String, checkIn: Double, dwell: Double) {
        self.zone = zone
        self.checkIn = checkIn
        self.dwell = dwell
    }
}

/// What a store answers for a ``ZoneReportQuery``.
public struct ZoneReportData: Hashable, Sendable {
    /// Each zone's counts in each bucket where it had a visit or presence (others are all zero), by zone then bucket.
    public var counts: [ZoneBucketCounts]
    /// The dwells of the visits that checked in within the buckets and are closed (not crossings), unordered.
    public var dwells: [ZoneDwell]
    /// Whether ``dwells`` holds all of them (`false`: there were more than ``ZoneReportQuery/dwellLimit``).
    public var dwellsComplete: Bool
    /// The earliest check-in stored for the venue, data time; `nil` when none is stored. Before it nothing is
    /// reported: expired (retention) or never recorded.
    public var storedSince: Double?

    public init(counts: [ZoneBucketCounts], dwells: [ZoneDwell], dwellsComplete: Bool, storedSince: Double?) {
        self.counts = counts
        self.dwells = dwells
        self.dwellsComplete = dwellsComplete
        self.storedSince = storedSince
    }
}

/// The SQL both stores share for a report, in each one's dialect.
enum ZoneReportSQL {
    /// `b(i, s, e) AS (VALUES …)`: the buckets as a table, their edges written as literals (finite numbers only, so
    /// nothing from a request is ever written into SQL but numbers this server formatted); typed for PostgreSQL
    /// (`::bigint`, `::float8`) when `postgres`.
    static func buckets(_ edges: [Double], postgres: Bool) -> String {
        var rows: [String] = []
        rows.reserveCapacity(max(0, edges.count - 1))
        for index in 0..<max(0, edges.count - 1) {
            let start = literal(edges[index])
            let end = literal(edges[index + 1])
            rows.append(
                postgres ? "(\(index)::bigint, \(start)::float8, \(end)::float8)" : "(\(index), \(start), \(end))")
        }
        return "b(i, s, e) AS (VALUES " + rows.joined(separator: ", ") + ")"
    }

    /// A finite number as an SQL literal (its shortest exact decimal form); 0 for what is not finite (callers check).
    static func literal(_ value: Double) -> String {
        value.isFinite ? "\(value)" : "0"
    }

    /// The counts per zone and bucket, after `WITH b AS (…), v AS (…)` (v: `zone, device, a` = check-in, `z` = end of
    /// presence, the visits that may touch the buckets). `least`/`greatest` are the dialect's two-argument minimum
    /// and maximum (`MIN`/`MAX` in SQLite, `LEAST`/`GREATEST` in PostgreSQL).
    static func counts(least: String, greatest: String) -> String {
        """
        agg AS (
            SELECT v.zone AS zone, b.i AS i,
                SUM(CASE WHEN v.a >= b.s THEN 1 ELSE 0 END) AS visits,
                COUNT(DISTINCT CASE WHEN v.a >= b.s THEN v.device END) AS devices,
                SUM(CASE WHEN v.z > v.a AND v.z > b.s THEN \(least)(v.z, b.e) - \(greatest)(v.a, b.s) ELSE 0 END)
                    AS presence
            FROM v JOIN b ON v.a < b.e AND (v.a >= b.s OR v.z > b.s)
            GROUP BY v.zone, b.i),
        ev(zone, t, d) AS (
            SELECT zone, a, 1 FROM v WHERE z > a UNION ALL SELECT zone, z, -1 FROM v WHERE z > a),
        run AS (
            SELECT zone, t, SUM(d) OVER (PARTITION BY zone ORDER BY t, d ROWS UNBOUNDED PRECEDING) AS n FROM ev),
        pk AS (
            SELECT run.zone AS zone, b.i AS i, MAX(run.n) AS peak
            FROM run JOIN b ON run.t >= b.s AND run.t < b.e GROUP BY run.zone, b.i),
        st AS (
            SELECT v.zone AS zone, b.i AS i, COUNT(*) AS n
            FROM v JOIN b ON v.a <= b.s AND v.z > b.s GROUP BY v.zone, b.i)
        SELECT agg.zone, agg.i, agg.visits, agg.devices, agg.presence,
            \(greatest)(COALESCE(pk.peak, 0), COALESCE(st.n, 0)) AS peak
        FROM agg LEFT JOIN pk ON pk.zone = agg.zone AND pk.i = agg.i
            LEFT JOIN st ON st.zone = agg.zone AND st.i = agg.i
        """
    }
}
