@_spi(IndoorPackages) import IndoorModel

/// Reads a gateway's JSON payload into a ``JSONValue`` in one pass over its bytes (``JSONByteScanner``), for the
/// payloads `JSONDecoder` would read the same way: the MQTT path's hot case.
///
/// It answers only where it is sure to answer as `JSONDecoder` does with ``JSONValue/init(from:)``: well-formed
/// RFC 8259 JSON in UTF-8, numbers a `Double` holds (but not a zero with an exponent, `0e4`, which `JSONDecoder`
/// refuses), strings without U+0000. For anything else (a syntax error,
/// and also what `JSONDecoder` reads though it is not strict JSON: a trailing comma, a byte order mark, UTF-16) it
/// answers `nil` and the caller asks `JSONDecoder`, so a payload is accepted or refused, and read, exactly as
/// before. Of a key given twice the first value counts, as with `JSONDecoder`.
package enum JSONPayloadReader {
    /// The value of `payload`, or `nil` when `JSONDecoder` must decide.
    ///
    /// - Complexity: O(payload bytes); recursion as deep as the payload nests (at most
    ///   ``JSONByteScanner/maximumDepth``).
    package static func value(_ payload: UnsafeRawBufferPointer) -> JSONValue? {
        var scanner = JSONByteScanner(payload)
        do throws(JSONSyntaxError) {
            guard let value = try readValue(&scanner, depth: 0) else { return nil }
            scanner.skipWhitespace()
            return scanner.isAtEnd ? value : nil
        } catch {
            return nil
        }
    }

    /// One value after whitespace; `nil` where `JSONDecoder` must decide.
    private static func readValue(_ scanner: inout JSONByteScanner, depth: Int) throws(JSONSyntaxError)
        -> JSONValue?
    {
        scanner.skipWhitespace()
        switch scanner.current {
        case UInt8(ascii: "\""):
            return readString(&scanner).map { .string($0) }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try scanner.scanNumber()
            return number.isRepresentable && !scanner.isZeroWithExponent(number) ? .number(number.value) : nil
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            let first = scanner.current
            try scanner.scanLiteral()
            switch first {
            case UInt8(ascii: "t"): return .bool(true)
            case UInt8(ascii: "f"): return .bool(false)
            default: return .null
            }
        case UInt8(ascii: "["):
            guard depth < JSONByteScanner.maximumDepth else { return nil }
            scanner.position += 1
            scanner.skipWhitespace()
            var elements: [JSONValue] = []
            if scanner.current == UInt8(ascii: "]") {
                scanner.position += 1
                return .array(elements)
            }
            while true {
                guard let element = try readValue(&scanner, depth: depth + 1) else { return nil }
                elements.append(element)
                guard try scanner.endOfMember(closing: UInt8(ascii: "]"), "',' or ']'") else { break }
            }
            return .array(elements)
        case UInt8(ascii: "{"):
            guard depth < JSONByteScanner.maximumDepth else { return nil }
            scanner.position += 1
            scanner.skipWhitespace()
            var members: [String: JSONValue] = [:]
            if scanner.current == UInt8(ascii: "}") {
                scanner.position += 1
                return .object(members)
            }
            while true {
                scanner.skipWhitespace()
                guard scanner.current == UInt8(ascii: "\""), let key = readString(&scanner) else { return nil }
                try scanner.expect(UInt8(ascii: ":"), "':'")
                guard let value = try readValue(&scanner, depth: depth + 1) else { return nil }
                if members[key] == nil { members[key] = value }
                guard try scanner.endOfMember(closing: UInt8(ascii: "}"), "',' or '}'") else { break }
            }
            return .object(members)
        default:
            return nil
        }
    }

    /// A string (the current byte is its opening quote), its escapes decoded; `nil` for a syntax error or a text
    /// holding U+0000 (which `JSONDecoder` refuses in some places and not others).
    private static func readString(_ scanner: inout JSONByteScanner) -> String? {
        guard let token = try? scanner.scanString() else { return nil }
        let text = scanner.string(token)
        if token.escaped, text.utf8.contains(0) { return nil }
        return text
    }
}
