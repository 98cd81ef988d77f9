/// Hex digits to bytes and back, for keys and advertising data that gateways write as text.
enum Hex {
    /// Why `text` is not hex, or its bytes.
    enum Outcome: Equatable {
        case bytes([UInt8])
        /// An odd number of digits: `count` characters.
        case oddLength(count: Int)
        /// A character that is not a hex digit, at character offset `offset`.
        case notHex(offset: Int)
    }

    /// Reads pairs of hex digits (either case), most significant digit first; nothing else is accepted.
    static func decode(_ text: some StringProtocol) -> Outcome {
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var high: UInt8 = 0
        for (offset, character) in utf8.enumerated() {
            guard let value = digit(character) else { return .notHex(offset: offset) }
            if offset % 2 == 0 {
                high = value
            } else {
                bytes.append(high << 4 | value)
            }
        }
        guard utf8.count % 2 == 0 else { return .oddLength(count: utf8.count) }
        return .bytes(bytes)
    }

    /// Lower-case hex digits of `bytes`, in order.
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }

    /// The value of one ASCII hex digit, or nil.
    private static func digit(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
