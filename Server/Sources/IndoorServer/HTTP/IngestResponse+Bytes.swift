import Foundation
import IndoorModel

extension IngestResponse {
    /// The answer's JSON, byte for byte what `JSONFormat.encoder()` makes of an ``IngestResponse``, with each
    /// event's JSON as the store keeps it (``VenueHub/Admission/eventJSON``) put in as it is instead of encoded again.
    ///
    /// The members in the encoder's sorted order, no whitespace: `accepted`, `errors`, `events` (the zone events),
    /// `fixes`, `lastEventId` (absent when nothing was stored), `rejected`, `venue`. The occupancy events the batch
    /// caused are not in the answer (the stream, MQTT and webhooks carry them), but `lastEventId` counts them.
    /// - Parameters:
    ///   - stored: The stored events, in order.
    ///   - eventJSON: Their JSON in the same order (encoded here when it does not hold one for each).
    /// - Throws: The encoder's error for `errors` or `venue` (none in practice: texts and whole numbers).
    package static func json(
        venue: String, accepted: Int, rejected: Int, stored: [StoredEvent], eventJSON: [Data], errors: [ItemError]
    ) throws -> Data {
        let encoder = JSONFormat.encoder()
        let eventJSON = try eventJSON.count == stored.count ? eventJSON : stored.map { try $0.event.json(encoder) }
        var zones: [Data] = []
        var fixes: [Data] = []
        for (event, json) in zip(stored, eventJSON) {
            switch event.event {
            case .fix: fixes.append(json)
            case .zone: zones.append(json)
            case .occupancy, .person: continue
            }
        }
        var out = Data()
        out.reserveCapacity(eventJSON.reduce(256) { $0 + $1.count + 1 })
        out.append(contentsOf: #"{"accepted":\#(accepted),"errors":"#.utf8)
        out.append(try encoder.encode(errors))
        out.append(contentsOf: #","events":"#.utf8)
        append(zones, to: &out)
        out.append(contentsOf: #","fixes":"#.utf8)
        append(fixes, to: &out)
        if let last = stored.last?.id { out.append(contentsOf: #","lastEventId":\#(last)"#.utf8) }
        out.append(contentsOf: #","rejected":\#(rejected),"venue":"#.utf8)
        out.append(try encoder.encode(venue))
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `[a,b,…]` of JSON values already encoded.
    private static func append(_ values: [Data], to out: inout Data) {
        out.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(value)
        }
        out.append(UInt8(ascii: "]"))
    }
}
