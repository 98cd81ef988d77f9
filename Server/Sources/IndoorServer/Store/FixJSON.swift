import Foundation
import IndoorModel

/// A fix's JSON written out directly, byte for byte what `JSONFormat.encoder()` makes of it (`Fix.encode(to:)`:
/// sorted keys, no whitespace, lengths to the millimetre, `latitude` and `longitude` to 1e-8 degrees, `confidence`
/// to 0.001, `t` as it is), for the fixes the server stores and answers with: `JSONEncoder` built a container per
/// fix and cost more than the fix's rows (docs/notes/ingest-profile.md).
///
/// It writes only what it is sure to write as `JSONEncoder` does: every number finite (`JSONEncoder` refuses the
/// others), every text printable ASCII without a quote or a backslash (nothing to escape). Otherwise it answers
/// `nil`, and the caller encodes with `JSONEncoder` (``ServerEvent/json(_:)``).
package enum FixJSON {
    /// The JSON of `fix`, or `nil` where `JSONEncoder` should write it.
    package static func json(_ fix: Fix) -> Data? {
        var out: [UInt8] = []
        out.reserveCapacity(160 + fix.device.utf8.count + fix.method.utf8.count)
        // The members in the encoder's sorted order; `floor`, `latitude` and `longitude` only when present.
        guard number("accuracy", rounded(fix.accuracy, 1e3), first: true, to: &out),
            number("confidence", rounded(fix.confidence, 1e3), to: &out),
            text("device", fix.device, to: &out)
        else { return nil }
        if let floor = fix.floor {
            out.append(contentsOf: #","floor":"#.utf8)
            out.append(contentsOf: String(floor).utf8)
        }
        if let coordinate = fix.coordinate {
            guard number("latitude", rounded(coordinate.latitude, 1e8), to: &out),
                number("longitude", rounded(coordinate.longitude, 1e8), to: &out)
            else { return nil }
        }
        guard text("method", fix.method, to: &out),
            number("t", fix.time, to: &out),
            number("x", rounded(fix.position.x, 1e3), to: &out),
            number("y", rounded(fix.position.y, 1e3), to: &out),
            number("z", rounded(fix.position.z, 1e3), to: &out)
        else { return nil }
        out.append(UInt8(ascii: "}"))
        return Data(out)
    }

    /// `"key":value` (after `{` for the first member, `,` for the others): `value` as `JSONEncoder` writes a
    /// `Double` (its shortest decimal form, `description`, without a trailing `.0`); `false` for a value that is
    /// not finite.
    private static func number(_ key: StaticString, _ value: Double, first: Bool = false, to out: inout [UInt8])
        -> Bool
    {
        guard value.isFinite else { return false }
        member(key, first: first, to: &out)
        let text = value.description
        let utf8 = text.utf8
        if text.hasSuffix(".0") {
            out.append(contentsOf: utf8.prefix(utf8.count - 2))
        } else {
            out.append(contentsOf: utf8)
        }
        return true
    }

    /// `,"key":"value"`; `false` when `value` holds a byte that `JSONEncoder` escapes or that is not ASCII.
    private static func text(_ key: StaticString, _ value: String, to out: inout [UInt8]) -> Bool {
        let plain = value.utf8.allSatisfy { byte in
            byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
        }
        guard plain else { return false }
        member(key, first: false, to: &out)
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: value.utf8)
        out.append(UInt8(ascii: "\""))
        return true
    }

    /// `{"key":` or `,"key":`.
    private static func member(_ key: StaticString, first: Bool, to out: inout [UInt8]) {
        out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
        out.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: #"":"#.utf8)
    }

    /// `value` to the nearest 1/`scale`, as `Fix.encode(to:)` rounds it: a value that is not finite, or too large to
    /// scale, as it is; one that rounds to zero is 0, never −0.
    private static func rounded(_ value: Double, _ scale: Double) -> Double {
        let scaled = value * scale
        guard scaled.isFinite, abs(scaled) < 1e15 else { return value }
        return scaled.rounded() / scale + 0
    }
}
