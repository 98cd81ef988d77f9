import Foundation

/// A JSON value as a gateway sent it, kept only long enough to read a few fields.
enum JSONValue: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The deepest nesting of arrays and objects read; deeper payloads are refused before decoding, so that
    /// decoding never recurses far.
    static let maximumDepth = 16

    init(from decoder: any Decoder) throws {
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
    enum TopLevel {
        case object([String: JSONValue])
        /// JSON, but not an object.
        case notObject
        /// Not JSON, or nested deeper than ``JSONValue/maximumDepth``.
        case notJSON
    }

    /// The object in `payload`, or why there is none.
    static func object(_ payload: [UInt8]) -> TopLevel {
        guard depth(payload) <= maximumDepth else { return .notJSON }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(payload))
        } catch {
            return .notJSON
        }
        guard case .object(let object) = value else { return .notObject }
        return .object(object)
    }

    /// The deepest nesting of `[` and `{` outside strings; a rough scan, only to bound recursion.
    static func depth(_ bytes: [UInt8]) -> Int {
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

    /// A short name of the value's JSON type, for messages: `null`, `a boolean`, `a number`, `a string`, …
    var typeName: String {
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
