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
            // A message that starts with its own field's name (`rssi '1000' is outside …`) needs no path
            // prefix at the top level of a document: `rssi '1000' is …` rather than `rssi: rssi '1000' is …`,
            // the same words as the CSV readers use.
            if context.codingPath.count == 1, let key = context.codingPath.first, key.intValue == nil,
                context.debugDescription.hasPrefix(key.stringValue + " ")
            {
                return context.debugDescription
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

extension KeyedDecodingContainer {
    /// Decodes an optional integer; a number with a fraction (`1.5`) or beyond `Int`'s range is reported
    /// as `expected an integer, found 1.5` at the key's path (Foundation's own wording differs by platform).
    func decodeIntegerIfPresent(forKey key: Key) throws -> Int? {
        do {
            return try decodeIfPresent(Int.self, forKey: key)
        } catch DecodingError.dataCorrupted(let context) {
            guard let number = try? decodeIfPresent(Double.self, forKey: key) else {
                throw DecodingError.dataCorrupted(context)
            }
            throw DecodingError.typeMismatch(
                Int.self,
                DecodingError.Context(
                    codingPath: codingPath + [key],
                    debugDescription: "expected an integer, found \(DatasetCSV.number(number))"))
        }
    }

    /// Decodes a required integer, with the messages of ``decodeIntegerIfPresent(forKey:)``.
    func decodeInteger(forKey key: Key) throws -> Int {
        guard let value = try decodeIntegerIfPresent(forKey: key) else {
            throw DecodingError.valueNotFound(
                Int.self, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "found null"))
        }
        return value
    }

    /// Decodes an optional coordinate in metres of the local frame, refusing a non-finite value or one beyond
    /// ``LocalFrame/limitMeters`` with a message naming `name`: `x 1000000 is more than 100 km from the origin`.
    func decodeCoordinateIfPresent(forKey key: Key, name: String) throws -> Double? {
        try decodeIfPresent(Double.self, forKey: key).map { try checkedCoordinate($0, forKey: key, name: name) }
    }

    /// Decodes a required coordinate in metres, with the checks of ``decodeCoordinateIfPresent(forKey:name:)``.
    func decodeCoordinate(forKey key: Key, name: String) throws -> Double {
        try checkedCoordinate(try decode(Double.self, forKey: key), forKey: key, name: name)
    }

    private func checkedCoordinate(_ value: Double, forKey key: Key, name: String) throws -> Double {
        if let problem = LocalFrame.problem(meters: value) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "\(name) \(DatasetCSV.number(value)) \(problem)")
        }
        return value
    }
}
