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
    ///
    /// A document that is not well-formed JSON is placed at its first syntax error (``JSONSyntaxError``):
    /// `venue.json: line 3, column 12: expected ',' or '}' after an object member, found '"'`; with `line`
    /// (one line of a JSON Lines file), `live.jsonl:4: column 12: …`. A well-formed document with a wrong
    /// value is named by the value's path: `venue.json: nodes[2].x: expected a number`.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, file: String, line: Int? = nil) throws -> T
    {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
                let syntax = JSONSyntaxError.find(in: data)
            {
                throw FormatError(code: .invalidJSON, file: file, line: line, message: describe(syntax, inLine: line))
            }
            throw FormatError(
                code: .invalidJSON, file: file, line: line, field: field(of: error), message: describe(error))
        } catch {
            // Foundation may throw its own error types for malformed input; place it at the syntax error if any.
            guard let syntax = JSONSyntaxError.find(in: data) else { throw error }
            throw FormatError(code: .invalidJSON, file: file, line: line, message: describe(syntax, inLine: line))
        }
    }

    /// `line L, column C: what` for a whole document; `column C: what` (or `line L, column C` when the text
    /// spans lines) for a document on one line of a JSON Lines file, whose line number the error already has.
    private static func describe(_ syntax: JSONSyntaxError, inLine line: Int?) -> String {
        guard line != nil, syntax.line == 1 else { return syntax.positionedMessage }
        return "column \(syntax.column): \(syntax.problem)"
    }

    /// The path of the field a decoding error is about, as ``describe(_:)`` writes it (`nodes[2].x`, `sightings[3]`
    /// for a field missing from that object); `nil` when it is about the document as a whole.
    public static func field(of error: DecodingError) -> String? {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found),
            .dataCorrupted(let found):
            context = found
        @unknown default:
            return nil
        }
        guard !context.codingPath.isEmpty else { return nil }
        return String(at(context.codingPath).dropLast(2))
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
            // A message that names its own field (`rssi '1000' is outside …`) needs no path prefix at the top
            // level of a document: `rssi '1000' is …` rather than `rssi: rssi '1000' is …`, the same words as the
            // CSV readers use.
            if context.underlyingError is NamesItsField, context.codingPath.count == 1 {
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
    /// Decodes an optional number. A number no `Double` can hold (`1e999`) is reported at the key's path as
    /// `x '1e999' is not a finite number`, not as the whole document's `not valid JSON` (Foundation on Linux
    /// throws an error without a path for it; elsewhere it may decode as infinity, which callers check).
    func decodeNumberIfPresent(forKey key: Key, name: String) throws -> Double? {
        do {
            return try decodeIfPresent(Double.self, forKey: key)
        } catch let error as DecodingError {
            throw error
        } catch {
            throw unrepresentableNumber(error, at: codingPath + [key], name: name, expected: "a finite number")
        }
    }

    /// Decodes a required number, with the messages of ``decodeNumberIfPresent(forKey:name:)``.
    func decodeNumber(forKey key: Key, name: String) throws -> Double {
        guard let value = try decodeNumberIfPresent(forKey: key, name: name) else {
            throw contains(key)
                ? DecodingError.valueNotFound(
                    Double.self, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "found null"))
                : DecodingError.keyNotFound(
                    key, DecodingError.Context(codingPath: codingPath, debugDescription: "missing \(name)"))
        }
        return value
    }

    /// Decodes an optional integer; a number with a fraction (`1.5`) or beyond `Int`'s range is reported as
    /// `expected an integer` at the key's path (Foundation on Linux reports it as `not valid JSON`, without one).
    func decodeIntegerIfPresent(forKey key: Key) throws -> Int? {
        do {
            return try decodeIfPresent(Int.self, forKey: key)
        } catch let error as DecodingError {
            guard case .dataCorrupted = error else { throw error }
        } catch {
        }
        throw DecodingError.typeMismatch(
            Int.self,
            DecodingError.Context(codingPath: codingPath + [key], debugDescription: "expected an integer"))
    }

    /// Decodes a required integer, with the messages of ``decodeIntegerIfPresent(forKey:)``.
    func decodeInteger(forKey key: Key) throws -> Int {
        guard let value = try decodeIntegerIfPresent(forKey: key) else {
            throw contains(key)
                ? DecodingError.valueNotFound(
                    Int.self, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "found null"))
                : DecodingError.keyNotFound(
                    key, DecodingError.Context(codingPath: codingPath, debugDescription: "missing field"))
        }
        return value
    }

    /// Decodes an optional coordinate in metres of the local frame, refusing a non-finite value or one beyond
    /// ``LocalFrame/limitMeters`` with a message naming `name`: `x '1000000' is more than 100 km from the origin`.
    func decodeCoordinateIfPresent(forKey key: Key, name: String) throws -> Double? {
        try decodeNumberIfPresent(forKey: key, name: name).map { try checkedCoordinate($0, forKey: key, name: name) }
    }

    /// Decodes a required coordinate in metres, with the checks of ``decodeCoordinateIfPresent(forKey:name:)``.
    func decodeCoordinate(forKey key: Key, name: String) throws -> Double {
        try checkedCoordinate(try decodeNumber(forKey: key, name: name), forKey: key, name: name)
    }

    private func checkedCoordinate(_ value: Double, forKey key: Key, name: String) throws -> Double {
        if let problem = LocalFrame.problem(meters: value) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "\(name) '\(DatasetCSV.number(value))' \(problem)")
        }
        return value
    }
}

extension UnkeyedDecodingContainer {
    /// Decodes the next number, with the messages of ``KeyedDecodingContainer/decodeNumberIfPresent(forKey:name:)``
    /// placed at the array's path (`name` says which element: `x`, `y`).
    mutating func decodeNumber(name: String) throws -> Double {
        let path = codingPath
        do {
            return try decode(Double.self)
        } catch let error as DecodingError {
            throw error
        } catch {
            throw unrepresentableNumber(error, at: path, name: name, expected: "a finite number")
        }
    }
}

/// Marks a decoding error whose message starts with the name of its field (`rssi '1000' is outside …`), so
/// that ``JSONFormat/describe(_:)`` does not repeat the name when the field is at the top of the document.
struct NamesItsField: Error {}

extension DecodingError {
    /// A `dataCorrupted` error at `path` whose `message` starts with the field's name.
    static func field(at path: [any CodingKey], _ message: String) -> DecodingError {
        .dataCorrupted(Context(codingPath: path, debugDescription: message, underlyingError: NamesItsField()))
    }
}

/// The error for a JSON number that no Swift number type can hold, placed at `path`.
///
/// Foundation on Linux throws an internal error for it whose text holds the number, `parsed: "1e999"`;
/// the message quotes the number when it can be found there.
private func unrepresentableNumber(_ error: any Error, at path: [any CodingKey], name: String, expected: String)
    -> DecodingError
{
    let text = "\(error)"
    var shown = ""
    if let start = text.range(of: "parsed: \""), let end = text[start.upperBound...].firstIndex(of: "\"") {
        shown = " '\(text[start.upperBound..<end])'"
    }
    return DecodingError.field(at: path, "\(name)\(shown) is not \(expected)")
}
