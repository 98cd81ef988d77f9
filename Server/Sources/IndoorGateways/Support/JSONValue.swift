import Foundation

/// A JSON value as a gateway sent it, kept only long enough to read a few fields.
package enum JSONValue: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The deepest nesting of arrays and objects read; deeper payloads are refused before decoding, so that
    /// decoding never recurses far.
    package static let maximumDepth = 16

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// What a payload holds at its top level.
    package enum TopLevel {
        case object([String: JSONValue])
        /// JSON, but not an object.
        case notObject
        /// Not JSON, or nested deeper than ``JSONValue/maximumDepth``.
        case notJSON
    }

    /// The object in `payload`, or why there is none: read in one pass (``JSONPayloadReader``), or by
    /// `JSONDecoder` where that reader leaves the answer to it, so that both give the same answers.
    package static func object(_ payload: [UInt8]) -> TopLevel {
        guard depth(payload) <= maximumDepth else { return .notJSON }
        let value: JSONValue
        if let read = payload.withUnsafeBytes({ JSONPayloadReader.value($0) }) {
            value = read
        } else {
            do {
                value = try decodedByFoundation(payload)
            } catch {
                return .notJSON
            }
        }
        guard case .object(let object) = value else { return .notObject }
        return .object(object)
    }

    /// `payload` decoded by Foundation's `JSONDecoder`: the reference ``JSONPayloadReader`` answers as, and the
    /// reader of what it leaves (text that is not strict JSON, or not JSON at all).
    /// - Throws: `JSONDecoder`'s error for a payload it cannot read.
    package static func decodedByFoundation(_ payload: [UInt8]) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(payload))
    }

    /// The deepest nesting of `[` and `{` outside strings; a rough scan, only to bound recursion.
    package static func depth(_ bytes: [UInt8]) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// Whether `other` is the same value: numbers bit for bit (so -0 is not 0), strings byte for byte, an object's
    /// members whatever their order. How the tests and the fuzz target compare ``JSONPayloadReader`` with
    /// `JSONDecoder`.
    package func isSame(as other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let left), .bool(let right)): return left == right
        case (.number(let left), .number(let right)): return left.bitPattern == right.bitPattern
        case (.string(let left), .string(let right)): return left.utf8.elementsEqual(right.utf8)
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.isSame(as: $1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count
                && left.allSatisfy { key, value in right[key].map { value.isSame(as: $0) } ?? false }
        default: return false
        }
    }

    /// A short name of the value's JSON type, for messages: `null`, `a boolean`, `a number`, `a string`, …
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
