import Foundation

/// The first syntax error of a JSON text, and where it is: what Foundation's decoder does not say.
///
/// Foundation's `JSONDecoder` on Linux reports every malformed document as "The given data was not valid
/// JSON", with no position. ``find(in:)`` scans the bytes (RFC 8259: one value, optionally surrounded by
/// whitespace) and stops at the first byte that cannot continue a valid document, so that a reader can say
/// `venue.json: line 3, column 12: expected ',' or '}' after an object member, found '"'`.
struct JSONSyntaxError: Hashable, Sendable {
    /// The 0-based byte offset of the problem in the data.
    var offset: Int
    /// The 1-based line of the problem (lines end in `\n`).
    var line: Int
    /// The 1-based column of the problem on its line, in Unicode scalars (a `\r` before `\n` is a column too).
    var column: Int
    /// What was wrong, for example `expected ':' after an object key, found '1'`.
    var message: String

    /// `line 3, column 12: <message>`.
    var positionedMessage: String { "line \(line), column \(column): \(message)" }

    /// The first syntax error in `data`, or `nil` when `data` is one well-formed JSON value.
    ///
    /// A leading UTF-8 byte-order mark is skipped. Strings are checked for unescaped control characters and
    /// bad escapes; numbers for the JSON number grammar; not checked: UTF-8 validity, duplicate keys, nesting depth.
    /// - Complexity: O(n) time for n bytes, O(d) memory for nesting depth d (no recursion).
    static func find(in data: Data) -> JSONSyntaxError? {
        let bytes = [UInt8](data)
        var scanner = Scanner(bytes: bytes)
        guard let (offset, message) = scanner.scan() else { return nil }
        return JSONSyntaxError(bytes: bytes, offset: offset, message: message)
    }

    /// Places `message` at `offset` of `bytes`, counting lines and columns.
    init(bytes: [UInt8], offset: Int, message: String) {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Not a UTF-8 continuation byte: a new scalar.
                column += 1
            }
        }
        self.offset = offset
        self.line = line
        self.column = column
        self.message = message
    }

    /// A byte-level JSON scanner that stops at the first error.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        /// What an open container expects next.
        private enum Frame {
            case objectKeyOrEnd, objectKey, objectColon, objectCommaOrEnd
            case arrayValueOrEnd, arrayValue, arrayCommaOrEnd
        }

        init(bytes: [UInt8]) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        /// The first error's offset and message, or `nil` for a valid document.
        mutating func scan() -> (Int, String)? {
            var stack: [Frame] = []
            skipWhitespace()
            guard index < bytes.count else { return (index, "the document is empty; expected a JSON value") }
            // Each turn reads one token (a value, or punctuation an open container expects).
            var expectValue = true
            while true {
                skipWhitespace()
                if expectValue {
                    expectValue = false
                    guard index < bytes.count else { return (index, "unexpected end of file; expected a value") }
                    switch bytes[index] {
                    case UInt8(ascii: "{"):
                        index += 1
                        stack.append(.objectKeyOrEnd)
                        continue
                    case UInt8(ascii: "["):
                        index += 1
                        stack.append(.arrayValueOrEnd)
                        continue
                    default:
                        if let error = scanScalarValue() { return error }
                    }
                } else {
                    guard let top = stack.popLast() else {
                        if index < bytes.count {
                            return (index, "unexpected \(describe(index)) after the end of the JSON value")
                        }
                        return nil
                    }
                    guard index < bytes.count else {
                        return (index, "unexpected end of file; expected \(expected(top))")
                    }
                    let byte = bytes[index]
                    switch (top, byte) {
                    case (.objectKeyOrEnd, UInt8(ascii: "}")), (.objectCommaOrEnd, UInt8(ascii: "}")),
                        (.arrayValueOrEnd, UInt8(ascii: "]")), (.arrayCommaOrEnd, UInt8(ascii: "]")):
                        index += 1
                        continue
                    case (.objectKeyOrEnd, UInt8(ascii: "\"")), (.objectKey, UInt8(ascii: "\"")):
                        if let error = scanString() { return error }
                        stack.append(.objectColon)
                        continue
                    case (.objectColon, UInt8(ascii: ":")):
                        index += 1
                        stack.append(.objectCommaOrEnd)
                        expectValue = true
                        continue
                    case (.objectCommaOrEnd, UInt8(ascii: ",")):
                        index += 1
                        stack.append(.objectKey)
                        continue
                    case (.arrayCommaOrEnd, UInt8(ascii: ",")):
                        index += 1
                        stack.append(.arrayValue)
                        continue
                    case (.arrayValueOrEnd, _), (.arrayValue, _):
                        guard top == .arrayValueOrEnd || byte != UInt8(ascii: "]") else {
                            return (index, "expected a value after ',', found ']'")
                        }
                        stack.append(.arrayCommaOrEnd)
                        expectValue = true
                        continue
                    default:
                        return (index, "expected \(expected(top)), found \(describe(index))")
                    }
                }
                // A scalar value was read: the container around it, if any, expects what follows a value.
                if stack.isEmpty {
                    skipWhitespace()
                    if index < bytes.count {
                        return (index, "unexpected \(describe(index)) after the end of the JSON value")
                    }
                    return nil
                }
            }
        }

        /// What a container in state `frame` expects, in words.
        private func expected(_ frame: Frame) -> String {
            switch frame {
            case .objectKeyOrEnd: "a string key or '}'"
            case .objectKey: "a string key after ','"
            case .objectColon: "':' after an object key"
            case .objectCommaOrEnd: "',' or '}' after an object member"
            case .arrayValueOrEnd: "a value or ']'"
            case .arrayValue: "a value after ','"
            case .arrayCommaOrEnd: "',' or ']' after an array element"
            }
        }

        /// The byte at `offset` in words: `'x'` for printable ASCII, `byte 0x00` otherwise.
        private func describe(_ offset: Int) -> String {
            let byte = bytes[offset]
            if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
            if byte == UInt8(ascii: "\n") { return "end of line" }
            return "byte 0x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }

        private mutating func skipWhitespace() {
            while index < bytes.count,
                bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
            {
                index += 1
            }
        }

        /// A string, number, `true`, `false` or `null` at `index`.
        private mutating func scanScalarValue() -> (Int, String)? {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""): return scanString()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return scanNumber()
            case UInt8(ascii: "t"): return scanLiteral("true")
            case UInt8(ascii: "f"): return scanLiteral("false")
            case UInt8(ascii: "n"): return scanLiteral("null")
            default: return (index, "expected a value, found \(describe(index))")
            }
        }

        private mutating func scanLiteral(_ word: String) -> (Int, String)? {
            let start = index
            for expected in word.utf8 {
                guard index < bytes.count, bytes[index] == expected else {
                    return (start, "expected a value, found \(describe(start)) (not '\(word)')")
                }
                index += 1
            }
            return nil
        }

        private mutating func scanString() -> (Int, String)? {
            let start = index
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return nil
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { break }
                    switch bytes[index] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index += 1
                    case UInt8(ascii: "u"):
                        for offset in 1...4 {
                            guard index + offset < bytes.count, bytes[index + offset].isHexDigit else {
                                return (index - 1, "invalid \\u escape in a string (expected four hex digits)")
                            }
                        }
                        index += 5
                    default:
                        return (index - 1, "invalid escape \\\(describe(index).trimmingQuotes) in a string")
                    }
                case 0x00..<0x20:
                    return (
                        index,
                        byte == UInt8(ascii: "\n")
                            ? "unterminated string (a line ends inside it)"
                            : "control character \(describe(index)) in a string; escape it"
                    )
                default:
                    index += 1
                }
            }
            return (start, "unterminated string (the file ends inside it)")
        }

        private mutating func scanNumber() -> (Int, String)? {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, bytes[index].isDigit else { return (start, "invalid number") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                if index < bytes.count, bytes[index].isDigit {
                    return (start, "invalid number (a leading zero)")
                }
            } else {
                while index < bytes.count, bytes[index].isDigit { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard index < bytes.count, bytes[index].isDigit else {
                    return (start, "invalid number (no digit after '.')")
                }
                while index < bytes.count, bytes[index].isDigit { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard index < bytes.count, bytes[index].isDigit else {
                    return (start, "invalid number (no digit in the exponent)")
                }
                while index < bytes.count, bytes[index].isDigit { index += 1 }
            }
            return nil
        }
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    fileprivate var isHexDigit: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f"))
            || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }

    fileprivate var trimmingQuotes: String {
        hasPrefix("'") && hasSuffix("'") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
