import Foundation
import IndoorModel

/// A venue's zones over a period, per bucket of an hour, a day or a week in the venue's time zone: visits, distinct
/// devices, median and 90th-percentile dwell, mean and peak occupancy (`GET /v1/venues/{id}/reports/zones`,
/// `indoor report`).
///
/// The counts are computed by the store's SQL (``LocationStore/zoneReport(_:)``); the dwell percentiles in Swift
/// from the period's dwells (one bounded query), since SQLite has no percentile function, the same way for both
/// stores. Data times are read as Unix seconds, so that buckets fall on the venue's local hours, days and weeks.
public struct ZoneReport: Hashable, Sendable, Encodable {
    /// The venue.
    public var venue: String
    /// The IANA time zone the buckets are in.
    public var timeZone: String
    /// `hour`, `day` or `week`.
    public var bucket: ReportBucket
    /// The start of the first bucket (the period asked for, widened to whole buckets), data time, seconds.
    public var from: Double
    /// The end of the last bucket, data time, seconds.
    public var to: Double
    /// The earliest check-in stored for the venue; before it nothing is reported (expired or never recorded).
    /// `nil` when the store holds no visit of the venue.
    public var storedSince: Double?
    /// Each zone (in the venue's order; zones no longer in the venue after them, by id) in each bucket, in order.
    public var rows: [ZoneReportRow]

    /// The most buckets a report has.
    public static let maximumBuckets = 2000
    /// The most dwells a report reads for its percentiles.
    public static let maximumDwells = 1_000_000

    /// The report of `venue`'s zones over `from ..< to` (data time, seconds), read from `store`.
    /// - Throws: ``ZoneReportError`` naming the parameter when the period is not one (`to` not after `from`, more
    ///   than ``maximumBuckets`` buckets, more than ``maximumDwells`` visits); the store's error.
    public static func make(
        store: any LocationStore, venue: Venue, from: Double, to: Double, bucket: ReportBucket
    ) async throws -> ZoneReport {
        guard from.isFinite, abs(from) < 1e12 else {
            throw ZoneReportError(field: "from", "from must be a time in Unix seconds")
        }
        guard to.isFinite, abs(to) < 1e12 else {
            throw ZoneReportError(field: "to", "to must be a time in Unix seconds")
        }
        guard to > from else { throw ZoneReportError(field: "to", "to must be after from") }
        let zoneName = venue.timeZone ?? "UTC"
        guard let timeZone = TimeZone(identifier: zoneName) else {
            throw ZoneReportError(field: "timeZone", "the venue's timeZone '\(zoneName)' is not an IANA time zone")
        }
        let edges = try bucket.edges(from: from, to: to, timeZone: timeZone, maximum: maximumBuckets)
        let data = try await store.zoneReport(
            ZoneReportQuery(venue: venue.id, edges: edges, dwellLimit: maximumDwells))
        guard data.dwellsComplete else {
            throw ZoneReportError(
                field: "from", "the period holds more than \(maximumDwells) visits; ask for a shorter one")
        }
        return ZoneReport(
            venue: venue.id, timeZone: zoneName, bucket: bucket, from: edges.first ?? from, to: edges.last ?? to,
            storedSince: data.storedSince,
            rows: rows(venue: venue, edges: edges, data: data, timeZone: timeZone))
    }

    /// Every zone in every bucket, zeros where nothing happened.
    static func rows(venue: Venue, edges: [Double], data: ZoneReportData, timeZone: TimeZone) -> [ZoneReportRow] {
        var counts: [String: [Int: ZoneBucketCounts]] = [:]
        for count in data.counts { counts[count.zone, default: [:]][count.bucket] = count }
        var dwells: [String: [Int: [Double]]] = [:]
        for dwell in data.dwells {
            guard let index = bucketIndex(of: dwell.checkIn, edges: edges) else { continue }
            dwells[dwell.zone, default: [:]][index, default: []].append(dwell.dwell)
        }
        var zones = venue.zones.map { (id: $0.id, name: $0.name) }
        let known = Set(zones.map(\.id))
        let others = Set(counts.keys).union(dwells.keys).subtracting(known).sorted()
        zones += others.map { (id: $0, name: $0) }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = timeZone
        formatter.formatOptions = [.withInternetDateTime]
        var rows: [ZoneReportRow] = []
        rows.reserveCapacity(zones.count * max(0, edges.count - 1))
        for zone in zones {
            for index in 0..<max(0, edges.count - 1) {
                let (start, end) = (edges[index], edges[index + 1])
                let count = counts[zone.id]?[index]
                let sorted = (dwells[zone.id]?[index] ?? []).sorted()
                rows.append(
                    ZoneReportRow(
                        zone: zone.id, name: zone.name, start: start, end: end,
                        local: formatter.string(from: Date(timeIntervalSince1970: start)),
                        visits: count?.visits ?? 0, devices: count?.devices ?? 0,
                        dwellMedian: percentile(sorted, 0.5).map { rounded($0) },
                        dwell90: percentile(sorted, 0.9).map { rounded($0) },
                        meanOccupancy: rounded((count?.presenceSeconds ?? 0) / (end - start)),
                        peakOccupancy: count?.peak ?? 0))
            }
        }
        return rows
    }

    /// The index of the bucket holding `time`, or `nil` outside them.
    static func bucketIndex(of time: Double, edges: [Double]) -> Int? {
        guard let first = edges.first, let last = edges.last, time >= first, time < last else { return nil }
        var low = 0
        var high = edges.count - 1
        // edges[low] <= time < edges[high]
        while high - low > 1 {
            let middle = (low + high) / 2
            if edges[middle] <= time { low = middle } else { high = middle }
        }
        return low
    }

    /// The `p` quantile (0…1) of `sorted` (ascending), linearly interpolated between the closest ranks (as
    /// PostgreSQL's `percentile_cont`); `nil` for no values.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double? {
        guard let first = sorted.first else { return nil }
        guard sorted.count > 1 else { return first }
        let position = p * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }

    /// `value` to the millisecond (a thousandth of a device, for occupancy).
    static func rounded(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }

    /// The report as CSV (RFC 4180, a header line, `\r\n` line ends): one line per row.
    public func csv() -> String {
        var lines = [
            "zone,name,start,end,localStart,visits,devices,dwellMedianSeconds,dwell90Seconds,meanOccupancy,peakOccupancy"
        ]
        lines.reserveCapacity(rows.count + 1)
        for row in rows {
            let fields: [String] = [
                Self.csvField(row.zone), Self.csvField(row.name), Self.number(row.start), Self.number(row.end),
                row.local, String(row.visits), String(row.devices), row.dwellMedian.map(Self.number) ?? "",
                row.dwell90.map(Self.number) ?? "", Self.number(row.meanOccupancy), String(row.peakOccupancy),
            ]
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// A number as JSON writes it (no trailing `.0`).
    static func number(_ value: Double) -> String {
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// `text` as a CSV field: quoted when it holds a comma, quote or line break; a leading `=`, `+`, `-` or `@`
    /// (which a spreadsheet would run as a formula) is escaped with a leading `'`.
    static func csvField(_ text: String) -> String {
        var value = text
        if let first = value.first, "=+-@".contains(first) { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// One zone in one bucket of a ``ZoneReport``.
public struct ZoneReportRow: Hashable, Sendable, Encodable {
    /// The zone's id.
    public var zone: String
    /// The zone's name.
    public var name: String
    /// The bucket's start, data time, seconds.
    public var start: Double
    /// The bucket's end (the next one's start), seconds.
    public var end: Double
    /// The bucket's start in the venue's time zone, ISO 8601 with its offset (`2026-11-28T10:00:00+01:00`).
    public var local: String
    /// Visits that checked in during the bucket (crossings of a geoline included).
    public var visits: Int
    /// Distinct devices among those visits.
    public var devices: Int
    /// The median dwell of those visits that have ended (not crossings, not lost), seconds; `nil` with none.
    public var dwellMedian: Double?
    /// Their 90th-percentile dwell, seconds; `nil` with none.
    public var dwell90: Double?
    /// Devices in the zone on average over the bucket (their summed time inside over the bucket's length).
    public var meanOccupancy: Double
    /// The most devices in the zone at once during the bucket.
    public var peakOccupancy: Int
}

/// The length of a report's buckets.
public enum ReportBucket: String, Hashable, Sendable, Encodable, CaseIterable {
    case hour, day, week

    /// The edges of the buckets covering `from ..< to` in `timeZone`: from the start of the bucket holding `from` to
    /// the end of the one holding the last instant before `to`. Days and weeks follow the zone's clock (a day may
    /// last 23 or 25 hours); weeks start on Monday (ISO 8601).
    /// - Throws: ``ZoneReportError`` (field `bucket`) for more than `maximum` buckets.
    func edges(from: Double, to: Double, timeZone: TimeZone, maximum: Int) throws -> [Double] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.firstWeekday = 2
        calendar.minimumDaysInFirstWeek = 4
        let component: Calendar.Component =
            switch self {
            case .hour: .hour
            case .day: .day
            case .week: .weekOfYear
            }
        let first =
            calendar.dateInterval(of: component, for: Date(timeIntervalSince1970: from))?.start.timeIntervalSince1970
            ?? from
        var edges = [first]
        var index = 1
        while let last = edges.last, last < to {
            guard edges.count <= maximum else {
                throw ZoneReportError(
                    field: "bucket",
                    "the period holds more than \(maximum) \(rawValue)s; ask for a shorter period or a longer bucket")
            }
            // Each edge from the first by calendar arithmetic, so that days keep their local midnight across a
            // change of daylight saving time.
            let unit: Calendar.Component = self == .week ? .day : component
            let step = self == .week ? 7 * index : index
            guard
                let next = calendar.date(byAdding: unit, value: step, to: Date(timeIntervalSince1970: first))?
                    .timeIntervalSince1970, next > last
            else {
                throw ZoneReportError(
                    field: "bucket", "the \(rawValue)s of time zone \(timeZone.identifier) cannot be counted")
            }
            edges.append(next)
            index += 1
        }
        return edges
    }
}

/// A report that cannot be made as asked: the parameter at fault and what to ask instead.
public struct ZoneReportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The parameter (`from`, `to`, `bucket`, `timeZone`).
    public var field: String
    /// What was wrong and how to fix it.
    public var message: String

    public init(field: String, _ message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}
