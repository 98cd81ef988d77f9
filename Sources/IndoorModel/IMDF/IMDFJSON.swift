import Foundation

/// A JSON value of an IMDF file, read whole so that every value can be named by its path in errors.
enum IMDFJSON: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([IMDFJSON])
    case object([String: IMDFJSON])

    /// The member `key` of an object; `nil` for a missing member and for any other value.
    subscript(key: String) -> IMDFJSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The text of a string value.
    var string: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The value of a number.
    var number: Double? {
        guard case .number(let value) = self else { return nil }
        return value
    }

    /// The elements of an array.
    var array: [IMDFJSON]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// Whether the value is `null`.
    var isNull: Bool { self == .null }

    /// What kind of value this is, for messages: `a string`, `an object`.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Reads the JSON document `data` of `file`.
    ///
    /// - Throws: ``IMDFError`` naming `file` and, for a malformed document, the line and column of its first syntax
    ///   error.
    static func parse(_ data: Data, file: String) throws -> IMDFJSON {
        do {
            return try JSONDecoder().decode(IMDFJSON.self, from: data)
        } catch {
            if let syntax = JSONSyntaxError.find(in: data) {
                throw IMDFError(file: file, message: "not valid JSON: \(syntax.positionedMessage)")
            }
            throw IMDFError(file: file, message: "not valid JSON (\(error.localizedDescription))")
        }
    }
}

extension IMDFJSON: Decodable {
    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [IMDFJSON] = []
            while !array.isAtEnd { elements.append(try array.decode(IMDFJSON.self)) }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: MemberKey.self) {
            var members: [String: IMDFJSON] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(IMDFJSON.self, forKey: key) }
            self = .object(members)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Any member name of an object.
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
