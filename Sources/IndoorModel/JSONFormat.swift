import Foundation

/// Shared JSON encoding and decoding with errors that name the file and the field path.
public enum JSONFormat {
    /// An encoder with sorted keys (stable output) and, optionally, pretty printing.
    public static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Decodes `type` from `data`, mapping decoding errors to a ``FormatError`` that names `file`
    /// (and `line`, for one line of a JSON Lines file) and the path of the bad field.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, file: String, line: Int? = nil) throws -> T
    {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw FormatError(code: .invalidJSON, file: file, line: line, message: describe(error))
        }
    }

    /// A one-line account of a decoding error: `nodes[2].x: expected a number`.
    public static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            return at(context.codingPath) + "expected \(typeName(type))"
        case .valueNotFound(let type, let context):
            return at(context.codingPath) + "expected \(typeName(type)), found null"
        case .keyNotFound(let key, let context):
            return at(context.codingPath) + "missing field '\(key.stringValue)'"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return
                    "not valid JSON (\(context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription))"
            }
            return at(context.codingPath) + context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }

    private static func at(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "" }
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text + ": "
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type: return "a number"
        case is Int.Type, is UInt16.Type, is Int8.Type, is UInt8.Type, is Int64.Type: return "an integer"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return name
        }
    }
}
