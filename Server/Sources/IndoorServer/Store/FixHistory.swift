import Foundation

/// A filter over a venue's stored fixes, for history playback (`GET /v1/venues/{id}/history`).
public struct FixHistoryQuery: Hashable, Sendable {
    /// The venue.
    public var venue: String
    /// Only fixes at or after this data time, seconds.
    public var from: Double
    /// Only fixes before this data time, seconds.
    public var to: Double
    /// Only this device's fixes.
    public var device: String?
    /// Only fixes on this floor level, and those with no floor (of a venue without floors: on every floor).
    public var floor: Int?
    /// At most this many fixes.
    public var limit: Int
    /// Only fixes after this one in the history's order (the previous page's last).
    public var after: FixHistoryPosition?

    /// A query over `venue`'s fixes with data times in `from ..< to`.
    public init(
        venue: String, from: Double, to: Double, device: String? = nil, floor: Int? = nil, limit: Int = 1000,
        after: FixHistoryPosition? = nil
    ) {
        self.venue = venue
        self.from = from
        self.to = to
        self.device = device
        self.floor = floor
        self.limit = limit
        self.after = after
    }
}

/// Where a fix stands in a history: the history is in data time order, then device, then the id it was stored under
/// (the order of the stores' index over fixes, so that a page is read from the index without sorting).
public struct FixHistoryPosition: Hashable, Sendable {
    /// Data time, seconds.
    public var time: Double
    /// The device.
    public var device: String
    /// The stored event id.
    public var id: Int64

    public init(time: Double, device: String, id: Int64) {
        self.time = time
        self.device = device
        self.id = id
    }

    /// The position as an opaque text: base64url of `h1:<time's bit pattern in hex>:<id>:<device>`.
    public var cursor: String {
        Data("h1:\(String(time.bitPattern, radix: 16)):\(id):\(device)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The position `cursor` names; `nil` for a text this server did not give out.
    public init?(cursor: String) {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else {
            return nil
        }
        let parts = text.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "h1", let bits = UInt64(parts[1], radix: 16), let id = Int64(parts[2])
        else { return nil }
        let time = Double(bitPattern: bits)
        guard time.isFinite else { return nil }
        self.init(time: time, device: String(parts[3]), id: id)
    }
}

/// A stored fix as the history gives it: its JSON as stored (the bytes the API answers) and its place in the order.
public struct HistoryFix: Hashable, Sendable {
    /// Where it stands in the history.
    public var position: FixHistoryPosition
    /// The fix's JSON (``IndoorModel/Fix``'s encoding), one line without its line feed.
    public var json: Data

    public init(position: FixHistoryPosition, json: Data) {
        self.position = position
        self.json = json
    }
}

/// One page of a history.
public struct FixHistoryPage: Hashable, Sendable {
    /// The fixes, in the history's order.
    public var fixes: [HistoryFix]
    /// Where the next page starts, when there may be more.
    public var next: FixHistoryPosition?

    public init(fixes: [HistoryFix], next: FixHistoryPosition?) {
        self.fixes = fixes
        self.next = next
    }
}
