/// One rule for writing an id (a venue, a device) as one MQTT topic level that every broker passes unchanged, and
/// that Home Assistant takes in an object id: letters `A`–`Z`, `a`–`z`, digits and `-` stay; every other byte of
/// the id's UTF-8 — `_` itself, `.`, `/`, `+`, `#`, `:`, a space, any non-ASCII character — becomes `_` and its two
/// upper-case hex digits. So `anna.phone` is `anna_2Ephone`, a beacon `UUID/1/7` is `UUID_2F1_2F7`, `tag_7` is
/// `tag_5F7`, `café` is `caf_C3_A9`.
///
/// Why: `/`, `+` and `#` cannot stand in a level; RabbitMQ turns a `.` into a `/` (the level splits, and an exact
/// subscription misses it); Home Assistant's object ids take only letters, digits, `_` and `-`. The rule is
/// reversible (``unescape(_:)``) and one id has one spelling, so two ids never share a level.
public enum TopicLevel {
    /// `id` as one topic level.
    public static func escape(_ id: String) -> String {
        var level = ""
        level.reserveCapacity(id.utf8.count)
        for byte in id.utf8 {
            if isKept(byte) {
                level.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                level += "_" + hexDigit(byte >> 4) + hexDigit(byte & 0x0F)
            }
        }
        return level
    }

    /// The id `level` was escaped from; nil when `level` is not the escape of any id (a byte that should have been
    /// escaped, an escape of a byte that should not, a `_` without two upper-case hex digits, bad UTF-8).
    public static func unescape(_ level: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(level.utf8).makeIterator()
        while let byte = iterator.next() {
            if isKept(byte) {
                bytes.append(byte)
                continue
            }
            guard byte == UInt8(ascii: "_"), let high = iterator.next().flatMap(hexValue),
                let low = iterator.next().flatMap(hexValue)
            else { return nil }
            let decoded = high << 4 | low
            if isKept(decoded) { return nil }
            bytes.append(decoded)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func isKept(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
    }

    private static func hexDigit(_ value: UInt8) -> String {
        String(UnicodeScalar(value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10))
    }

    /// The value of an upper-case hex digit.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
