import Foundation

/// How much a key given by the operator could be guessed: its length times the bits of each character of the classes
/// it uses (digits, lower-case, upper-case letters, others), which over-estimates a chosen word and is right for a
/// random key. A key must carry ``minimumBits`` (`openssl rand -hex 16` gives 32 hex digits: 128 bits at least by
/// this count) and use at least ``minimumDistinctCharacters`` distinct characters (so `aaaa…` is refused).
public enum KeyStrength {
    /// The fewest estimated bits a key of the operator's must carry.
    public static let minimumBits = 128
    /// The fewest distinct characters.
    public static let minimumDistinctCharacters = 8
    /// A command that prints a key strong enough.
    public static let makeOne = "openssl rand -hex 16"

    /// The estimated bits of `key` (see the type's description).
    public static func bits(_ key: String) -> Double {
        var pool = 0
        let scalars = key.unicodeScalars
        if scalars.contains(where: { ("0"..."9").contains($0) }) { pool += 10 }
        if scalars.contains(where: { ("a"..."z").contains($0) }) { pool += 26 }
        if scalars.contains(where: { ("A"..."Z").contains($0) }) { pool += 26 }
        if scalars.contains(where: {
            !("0"..."9").contains($0) && !("a"..."z").contains($0) && !("A"..."Z").contains($0)
        }) {
            pool += 33
        }
        guard pool > 1 else { return 0 }
        return Double(scalars.count) * log2(Double(pool))
    }

    /// `nil` when `key` is strong enough; else why not, naming `option` and how to make a key.
    public static func problem(_ key: String, option: String) -> String? {
        let bits = bits(key)
        let distinct = Set(key.unicodeScalars).count
        guard bits < Double(minimumBits) || distinct < minimumDistinctCharacters else { return nil }
        return "\(option): the key is too weak (about \(Int(bits)) bits, \(distinct) distinct characters; at least "
            + "\(minimumBits) bits and \(minimumDistinctCharacters) distinct characters are needed); make one with "
            + "'\(makeOne)'"
    }
}
