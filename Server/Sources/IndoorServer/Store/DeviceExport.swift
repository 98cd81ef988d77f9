import Foundation
import IndoorModel

/// A device's stored data across venues, as NDJSON lines a page at a time (docs/PRIVACY.md): for
/// `GET /v1/devices/{device}/export` and `indoor export --device`.
///
/// Each line is one JSON object: `{"kind": …, "venue": …, "id": …, "data": {…}}`, where `kind` is `latest` (the device's
/// latest fix in a venue; no `id`), `sighting`, `fix`, `event` (a zone event), `visit`, `surveyRecording` (a site
/// survey recording of the device carried, with its marks) or `surveySighting` (a sighting kept with one), and `data`
/// is the row as the API gives it elsewhere (a sighting's stored columns, a fix, a zone event, a visit, a recording's
/// source, times and marks, a kept sighting with its recording's id). The kinds come in that order, each in id order. A page ends after about `limit` lines; ``Page/next`` continues it.
public struct DeviceExport: Sendable {
    /// The store read.
    public let store: any LocationStore
    /// The device.
    public let device: String
    /// Only rows at or after this data time, seconds.
    public let from: Double?
    /// Only rows before this data time, seconds.
    public let to: Double?

    /// The order of the tables read (``DeviceRecordKind/fix`` reads fixes and zone events together).
    static let sections: [DeviceRecordKind] = [.latest, .sighting, .fix, .visit, .surveyRecording, .surveySighting]

    public init(store: any LocationStore, device: String, from: Double? = nil, to: Double? = nil) {
        self.store = store
        self.device = device
        self.from = from
        self.to = to
    }

    /// Where a page starts: a table and the id after which it goes on.
    public struct Cursor: Hashable, Sendable {
        var section: DeviceRecordKind
        var after: Int64

        /// The start of the export.
        public static let start = Cursor(section: .latest, after: 0)

        /// The cursor as an opaque text: base64url of `x1:<kind>:<id>`.
        public var text: String {
            Data("x1:\(section.rawValue):\(after)".utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }

        /// The cursor `text` names; `nil` for one this server did not give out.
        public init?(text: String) {
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            guard let data = Data(base64Encoded: base64), let decoded = String(data: data, encoding: .utf8) else {
                return nil
            }
            let parts = decoded.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "x1", let section = DeviceRecordKind(rawValue: String(parts[1])),
                Self.sections.contains(section), let after = Int64(parts[2]), after >= 0
            else { return nil }
            self.init(section: section, after: after)
        }

        init(section: DeviceRecordKind, after: Int64) {
            self.section = section
            self.after = after
        }

        private static var sections: [DeviceRecordKind] { DeviceExport.sections }
    }

    /// One page: its lines (each ending with a line feed) and where the next starts (`nil` at the end).
    public struct Page: Sendable {
        public var lines: [Data]
        public var next: Cursor?
    }

    /// The page from `cursor`, of about `limit` lines (the latest fixes, one per venue, come whole).
    /// - Throws: The store's error.
    public func page(from cursor: Cursor = .start, limit: Int) async throws -> Page {
        let limit = max(1, limit)
        var lines: [Data] = []
        guard var index = Self.sections.firstIndex(of: cursor.section) else { return Page(lines: [], next: nil) }
        var after = cursor.after
        while index < Self.sections.count {
            let section = Self.sections[index]
            let remaining = limit - lines.count
            if remaining <= 0 { return Page(lines: lines, next: Cursor(section: section, after: after)) }
            let records = try await store.deviceRecords(
                DeviceRecordQuery(device: device, kind: section, from: from, to: to, after: after, limit: remaining))
            lines += try records.map(Self.line)
            if section != .latest, records.count == remaining, let last = records.last {
                return Page(lines: lines, next: Cursor(section: section, after: last.id))
            }
            index += 1
            after = 0
        }
        return Page(lines: lines, next: nil)
    }

    /// Calls `write` with every line of the export, a page of `pageSize` at a time.
    /// - Returns: How many lines were written.
    @discardableResult
    public func all(pageSize: Int = 1000, _ write: (Data) throws -> Void) async throws -> Int {
        var cursor: Cursor? = .start
        var count = 0
        while let current = cursor {
            let page = try await page(from: current, limit: pageSize)
            for line in page.lines { try write(line) }
            count += page.lines.count
            cursor = page.next
        }
        return count
    }

    /// `record` as one NDJSON line.
    static func line(_ record: DeviceRecord) throws -> Data {
        let encoder = JSONEncoder()
        var line = Data("{\"kind\":\"\(record.kind.rawValue)\",\"venue\":".utf8)
        line += try encoder.encode(record.venue)
        if record.kind != .latest { line += Data(",\"id\":\(record.id)".utf8) }
        line += Data(",\"data\":".utf8)
        line += record.json
        line += Data("}\n".utf8)
        return line
    }
}
