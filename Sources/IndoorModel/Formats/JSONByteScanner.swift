/// A single-pass reader of JSON tokens over UTF-8 bytes, for decoders specialised to one schema (the server's
/// `SightingBatchReader`) and for gateways' small payloads (``JSONPayloadReader``): no `Decoder` containers.
///
/// It accepts exactly RFC 8259 JSON: whitespace is space, tab, CR and LF; strings are valid UTF-8 with the
/// escapes `\" \\ \/ \b \f \n \r \t \uXXXX` (a surrogate pair as two `\u` escapes; a lone surrogate is an error);
/// numbers are `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`. Every read checks its index against the
/// buffer's count; the end of the buffer reads as byte 0, which no well-formed token contains.
@_spi(IndoorPackages) public struct JSONByteScanner {
    /// The deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 512

    public let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    public var position = 0

    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// A string token: the bytes between its quotes, and whether they hold escapes (then ``string(_:)`` decodes).
    public struct StringToken {
        public var start: Int
        public var end: Int
        public var escaped: Bool
    }

    /// A number token: its value (infinite when the text overflows a `Double`) and the range of its text.
    public struct NumberToken {
        public var value: Double
        public var start: Int
        public var end: Int
        /// Whether the text has a digit other than 0 (so a value of 0 means it underflowed).
        public var nonzero: Bool

        /// Whether a `Double` holds the number: finite, and not a nonzero number rounded to 0.
        public var isRepresentable: Bool { value.isFinite && (value != 0 || !nonzero) }
    }

    /// The byte at `index`, or 0 past the end.
    @inline(__always)
    public func byte(at index: Int) -> UInt8 {
        index >= 0 && index < bytes.count ? bytes[index] : 0
    }

    /// The next byte, or 0 at the end.
    @inline(__always)
    public var current: UInt8 { byte(at: position) }

    public var isAtEnd: Bool { position >= bytes.count }

    /// Steps over JSON whitespace.
    @inline(__always)
    public mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// The syntax error at the current position: `expected X, found 'c'` or `unexpected end of input; expected X`.
    public func error(expected: String) -> JSONSyntaxError {
        error(at: position, expected: expected)
    }

    public func error(at offset: Int, expected: String) -> JSONSyntaxError {
        guard offset < bytes.count else {
            return .at(offset, in: bytes, "unexpected end of input; expected \(expected)")
        }
        return .at(offset, in: bytes, "expected \(expected), found \(Self.show(bytes[offset]))")
    }

    public func error(at offset: Int, _ problem: String) -> JSONSyntaxError {
        .at(offset, in: bytes, problem)
    }

    /// `'c'` for a printable ASCII byte, `byte 0xNN` otherwise.
    public static func show(_ byte: UInt8) -> String {
        if byte >= 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x\(hex.count < 2 ? "0" + hex : hex)"
    }

    /// Consumes `byte` (after whitespace) or throws `expected <what>`.
    @inline(__always)
    public mutating func expect(_ byte: UInt8, _ what: String) throws(JSONSyntaxError) {
        skipWhitespace()
        guard current == byte else { throw error(expected: what) }
        position += 1
    }

    // MARK: Strings

    /// Reads a string token; the current byte must be its opening quote.
    ///
    /// - Complexity: O(length); a body of ASCII without escapes is read byte by byte once.
    public mutating func scanString() throws(JSONSyntaxError) -> StringToken {
        position += 1
        let start = position
        var escaped = false
        var ascii = true
        while true {
            guard position < bytes.count else { throw error(expected: "'\"' to close the string") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                try scanEscape()
                continue
            }
            if byte == 0x0A || byte == 0x0D {
                throw error(at: position, "a line ends inside a string (is its closing '\"' missing?)")
            }
            if byte < 0x20 {
                throw error(at: position, "a control character (byte 0x\(String(byte, radix: 16))) in a string")
            }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        let end = position
        position += 1
        if !ascii {
            let valid = UnsafeRawBufferPointer(rebasing: bytes[start..<end]).withMemoryRebound(to: UInt8.self) {
                String(validating: $0, as: UTF8.self) != nil
            }
            guard valid else { throw error(at: start, "a string that is not valid UTF-8") }
        }
        return StringToken(start: start, end: end, escaped: escaped)
    }

    /// Checks the escape at the current position (a backslash) and steps over it.
    private mutating func scanEscape() throws(JSONSyntaxError) {
        let start = position
        position += 1
        switch current {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 1
        case UInt8(ascii: "u"):
            let unit = try hexUnit(at: position + 1)
            position += 5
            if unit >= 0xD800, unit < 0xDC00 {
                guard current == UInt8(ascii: "\\"), byte(at: position + 1) == UInt8(ascii: "u"),
                    case let low = try hexUnit(at: position + 2), low >= 0xDC00, low < 0xE000
                else { throw error(at: start, "a high surrogate \\u escape without its low surrogate") }
                position += 6
            } else if unit >= 0xDC00, unit < 0xE000 {
                throw error(at: start, "a low surrogate \\u escape without a high surrogate before it")
            }
        default:
            throw error(at: position, expected: "an escape (one of \" \\ / b f n r t u)")
        }
    }

    /// The four hex digits at `offset` as a UTF-16 code unit.
    private func hexUnit(at offset: Int) throws(JSONSyntaxError) -> UInt16 {
        var unit: UInt16 = 0
        for index in offset..<offset + 4 {
            let byte = byte(at: index)
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(at: index, expected: "four hex digits after \\u")
            }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    /// Whether `token` (unescaped) is exactly the ASCII text `literal`.
    public func token(_ token: StringToken, is literal: StaticString) -> Bool {
        guard token.end - token.start == literal.utf8CodeUnitCount else { return false }
        let text = UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for index in 0..<text.count where bytes[token.start + index] != text[index] {
            return false
        }
        return true
    }

    /// The text of a string token (already checked by ``scanString()``), its escapes decoded.
    public func string(_ token: StringToken) -> String {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[token.start..<token.end])
        guard token.escaped else { return String(decoding: raw, as: UTF8.self) }
        var text: [UInt8] = []
        text.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < raw.count else {
                text.append(byte)
                index += 1
                continue
            }
            let kind = raw[index + 1]
            index += 2
            switch kind {
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = UInt32(Self.hex(raw, at: index))
                index += 4
                if scalar >= 0xD800, scalar < 0xDC00 {
                    let low = UInt32(Self.hex(raw, at: index + 2))
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                text.append(contentsOf: Unicode.Scalar(scalar).map { Array(String($0).utf8) } ?? [0xEF, 0xBF, 0xBD])
            default: text.append(kind)
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Four hex digits already checked by ``scanString()``; 0 for any byte past the end.
    private static func hex(_ raw: UnsafeRawBufferPointer, at offset: Int) -> UInt16 {
        var unit: UInt16 = 0
        for index in offset..<offset + 4 {
            let byte = index < raw.count ? raw[index] : UInt8(ascii: "0")
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: digit = byte &- UInt8(ascii: "0")
            }
            unit = unit << 4 | UInt16(digit & 0x0F)
        }
        return unit
    }

    // MARK: Numbers

    /// Reads a number token; the current byte must be `-` or a digit.
    public mutating func scanNumber() throws(JSONSyntaxError) -> NumberToken {
        let start = position
        var negative = false
        if current == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exact = true
        if current == UInt8(ascii: "0") {
            position += 1
            if isDigit(current) { throw error(at: start, "a number with a leading zero") }
        } else if isDigit(current) {
            while isDigit(current) {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(current &- UInt8(ascii: "0"))
                    if mantissa != 0 { digits += 1 }
                } else {
                    exact = false
                }
                position += 1
            }
        } else {
            throw error(expected: "a digit")
        }
        var scale = 0
        if current == UInt8(ascii: ".") {
            position += 1
            guard isDigit(current) else { throw error(expected: "a digit after '.'") }
            while isDigit(current) {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(current &- UInt8(ascii: "0"))
                    if mantissa != 0 { digits += 1 }
                    scale -= 1
                } else {
                    exact = false
                }
                position += 1
            }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            var exponentNegative = false
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") {
                exponentNegative = current == UInt8(ascii: "-")
                position += 1
            }
            guard isDigit(current) else { throw error(expected: "a digit in the exponent") }
            var exponent = 0
            while isDigit(current) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(current &- UInt8(ascii: "0")) }
                position += 1
            }
            scale += exponentNegative ? -exponent : exponent
        }
        let end = position
        // Clinger's fast path: a mantissa of at most 15 digits (exact in a Double) times an exact power of ten
        // is correctly rounded by one multiplication or division. Anything else goes to the standard library.
        if exact, digits <= 15, scale >= -22, scale <= 22 {
            var value = Double(mantissa)
            if scale < 0 { value /= Self.powersOfTen[-scale] } else { value *= Self.powersOfTen[scale] }
            return NumberToken(value: negative ? -value : value, start: start, end: end, nonzero: mantissa != 0)
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        let value = Double(text) ?? (negative ? -.infinity : .infinity)
        return NumberToken(value: value, start: start, end: end, nonzero: mantissa != 0)
    }

    /// Whether the number is a zero with an exponent right after it (`0e4`, `-0E-1`): JSON, but Foundation's
    /// `JSONDecoder` refuses it (measured), so the readers that answer as it does leave such a number to it.
    public func isZeroWithExponent(_ token: NumberToken) -> Bool {
        let digit = byte(at: token.start) == UInt8(ascii: "-") ? token.start + 1 : token.start
        let next = byte(at: digit + 1)
        return byte(at: digit) == UInt8(ascii: "0") && (next == UInt8(ascii: "e") || next == UInt8(ascii: "E"))
    }

    /// The text of a number token, as written.
    public func text(_ token: NumberToken) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[token.start..<token.end]), as: UTF8.self)
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    // MARK: Literals and whole values

    /// Consumes `true`, `false` or `null` (the current byte is its first letter).
    public mutating func scanLiteral() throws(JSONSyntaxError) {
        let literal: StaticString
        switch current {
        case UInt8(ascii: "t"): literal = "true"
        case UInt8(ascii: "f"): literal = "false"
        default: literal = "null"
        }
        let text = UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for index in 0..<text.count where byte(at: position + index) != text[index] {
            throw error(at: position, "expected a value, found \(Self.show(current)) (not '\(literal)')")
        }
        position += text.count
    }

    /// Checks that the rest of the text is one JSON value, optionally surrounded by whitespace.
    public mutating func scanDocument() throws(JSONSyntaxError) {
        skipWhitespace()
        guard !isAtEnd else { throw error(at: position, "the document is empty; expected a JSON value") }
        try skipValue()
        skipWhitespace()
        guard isAtEnd else {
            throw error(at: position, "unexpected \(Self.show(bytes[position])) after the end of the JSON value")
        }
    }

    /// Steps over one value of any kind (after whitespace), checking its syntax.
    public mutating func skipValue(depth: Int = 0) throws(JSONSyntaxError) {
        skipWhitespace()
        switch current {
        case UInt8(ascii: "\""): _ = try scanString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try scanNumber()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): try scanLiteral()
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { throw error(at: position, "nested more than 512 deep") }
            position += 1
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                position += 1
                return
            }
            var first = true
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else {
                    throw error(expected: first ? "a string key" : "a string key after ','")
                }
                first = false
                _ = try scanString()
                try expect(UInt8(ascii: ":"), "':' after an object key")
                try skipValue(depth: depth + 1)
                guard try endOfMember(closing: UInt8(ascii: "}"), "',' or '}' after an object member") else { return }
            }
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw error(at: position, "nested more than 512 deep") }
            position += 1
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                position += 1
                return
            }
            while true {
                try skipValue(depth: depth + 1)
                guard try endOfMember(closing: UInt8(ascii: "]"), "',' or ']' after an array element") else { return }
            }
        default:
            throw error(expected: "a value")
        }
    }

    /// After a member or element: consumes `,` (returns true: another follows) or `closing` (returns false).
    @inline(__always)
    public mutating func endOfMember(closing: UInt8, _ what: String) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        switch current {
        case UInt8(ascii: ","):
            position += 1
            return true
        case closing:
            position += 1
            return false
        default:
            throw error(expected: what)
        }
    }
}
