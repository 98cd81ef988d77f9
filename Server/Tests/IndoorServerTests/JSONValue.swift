import Foundation

/// Any JSON value, read with `JSONDecoder` so that booleans, numbers and strings stay apart (for
/// ``SchemaValidator``).
indirect enum JSONValue: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

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

    /// Reads `data` as JSON.
    static func parse(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Reads `text` as JSON.
    static func parse(_ text: String) throws -> JSONValue {
        try parse(Data(text.utf8))
    }

    /// The member `key` of an object, `nil` otherwise.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The text of a string, `nil` otherwise.
    var string: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The elements of an array, `nil` otherwise.
    var array: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// The number, `nil` otherwise.
    var number: Double? {
        guard case .number(let value) = self else { return nil }
        return value
    }
}
