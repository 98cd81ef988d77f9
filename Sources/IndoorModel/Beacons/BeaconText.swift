import Foundation

/// The text forms `UUID`, `UUID/major` and `UUID/major/minor` shared by ``BeaconID`` and ``BeaconCondition``:
/// parsing with errors that name the bad part, and Codable as a JSON string.
enum BeaconText {
    /// Splits and checks `text`.
    ///
    /// - Parameters:
    ///   - noun: What the text is, for errors (`beacon identity`).
    ///   - forms: The forms allowed, for errors (`UUID/major/minor`).
    ///   - partCounts: How many `/`-separated parts are allowed.
    /// - Returns: The UUID, and the major and minor when present.
    /// - Throws: ``FormatError`` (`invalidValue`) naming the part that is wrong.
    static func parse(_ text: String, noun: String, forms: String, partCounts: ClosedRange<Int>) throws
        -> (uuid: UUID, major: UInt16?, minor: UInt16?)
    {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard partCounts.contains(parts.count) else {
            throw FormatError(code: .invalidValue, message: "\(noun) '\(text)' is not \(forms)")
        }
        guard let uuid = UUID(uuidString: String(parts[0])) else {
            throw FormatError(code: .invalidValue, message: "\(noun) '\(text)': '\(parts[0])' is not a UUID")
        }
        func number(_ index: Int, _ name: String) throws -> UInt16? {
            guard index < parts.count else { return nil }
            guard let value = UInt16(parts[index]) else {
                throw FormatError(
                    code: .invalidValue,
                    message: "\(noun) '\(text)': \(name) '\(parts[index])' is not an integer in 0...65535")
            }
            return value
        }
        return (uuid, try number(1, "major"), try number(2, "minor"))
    }

    /// Decodes a JSON string with `parse`, turning its ``FormatError`` into a `DecodingError` at the field.
    static func decode<Value>(from decoder: any Decoder, parse: (String) throws -> Value) throws -> Value {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            return try parse(text)
        } catch let error as FormatError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    /// Encodes `text` as a JSON string.
    static func encode(_ text: String, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
