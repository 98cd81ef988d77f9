/// A 48-bit Bluetooth device address.
///
/// The text form is six upper-case hex bytes separated by colons, most significant first
/// (`C0:FF:EE:00:00:01`), as `btmon` and `hcitool` print it. On the wire (HCI) the bytes are little-endian.
public struct BluetoothAddress: Hashable, Sendable, Comparable {
    /// The address as a number; only the low 48 bits are used.
    public var rawValue: UInt64

    /// An address from its 48-bit value (the most significant byte is the first in text form); higher bits are ignored.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue & 0xFFFF_FFFF_FFFF
    }

    /// Parses `AA:BB:CC:DD:EE:FF` (colons or dashes, either case).
    public init?(_ text: String) {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == "-" })
        guard parts.count == 6 else { return nil }
        var value: UInt64 = 0
        for part in parts {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
            value = value << 8 | UInt64(byte)
        }
        self.init(rawValue: value)
    }

    /// Reads six little-endian bytes at `offset` (the caller has checked the bounds).
    @inline(__always)
    init(littleEndian buffer: UnsafeRawBufferPointer, at offset: Int) {
        var value: UInt64 = 0
        for index in (0..<6).reversed() {
            value = value << 8 | UInt64(buffer[offset + index])
        }
        rawValue = value
    }

    /// The six bytes in HCI (little-endian) order.
    public var littleEndianBytes: [UInt8] {
        (0..<6).map { UInt8(truncatingIfNeeded: rawValue >> (8 * UInt64($0))) }
    }

    /// `AA:BB:CC:DD:EE:FF`.
    public var text: String {
        let digits: [Character] = Array("0123456789ABCDEF")
        var text = ""
        for index in (0..<6).reversed() {
            let byte = Int((rawValue >> (8 * UInt64(index))) & 0xFF)
            text.append(digits[byte >> 4])
            text.append(digits[byte & 0x0F])
            if index > 0 { text.append(":") }
        }
        return text
    }

    public static func < (lhs: BluetoothAddress, rhs: BluetoothAddress) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension BluetoothAddress: CustomStringConvertible {
    public var description: String { text }
}
