// Unchecked-in-release byte readers for the hot paths. Every caller checks lengths before reading.

extension UnsafeRawBufferPointer {
    @inline(__always)
    func u16le(_ index: Int) -> UInt16 {
        UInt16(self[index]) | UInt16(self[index + 1]) << 8
    }

    @inline(__always)
    func u16be(_ index: Int) -> UInt16 {
        UInt16(self[index]) << 8 | UInt16(self[index + 1])
    }

    @inline(__always)
    func u32be(_ index: Int) -> UInt32 {
        UInt32(self[index]) << 24 | UInt32(self[index + 1]) << 16 | UInt32(self[index + 2]) << 8
            | UInt32(self[index + 3])
    }

    @inline(__always)
    func u64be(_ index: Int) -> UInt64 {
        UInt64(u32be(index)) << 32 | UInt64(u32be(index + 4))
    }

    @inline(__always)
    func i8(_ index: Int) -> Int8 {
        Int8(bitPattern: self[index])
    }

    /// The bytes `start ..< start + count` as a buffer (the caller has checked the bounds).
    @inline(__always)
    func slice(_ start: Int, _ count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: self[start..<start + count])
    }
}

extension Array where Element == UInt8 {
    mutating func appendU16LE(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func appendU16BE(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }

    mutating func appendU32BE(_ value: UInt32) {
        append(UInt8(truncatingIfNeeded: value >> 24))
        append(UInt8(truncatingIfNeeded: value >> 16))
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }

    mutating func appendU64BE(_ value: UInt64) {
        appendU32BE(UInt32(truncatingIfNeeded: value >> 32))
        appendU32BE(UInt32(truncatingIfNeeded: value))
    }
}

/// Lower-case hex of bytes, two digits each.
func hexString(_ bytes: some Sequence<UInt8>) -> String {
    let digits: [Character] = Array("0123456789abcdef")
    var text = ""
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }
    return text
}

/// Bytes from hex text (whitespace allowed between bytes), or nil when the text is not hex.
func bytes(hex text: String) -> [UInt8]? {
    var result: [UInt8] = []
    var high: UInt8?
    for scalar in text.unicodeScalars {
        if scalar == " " || scalar == "\n" || scalar == ":" { continue }
        guard let nibble = UInt8(String(scalar), radix: 16) else { return nil }
        if let value = high {
            result.append(value << 4 | nibble)
            high = nil
        } else {
            high = nibble
        }
    }
    return high == nil ? result : nil
}
