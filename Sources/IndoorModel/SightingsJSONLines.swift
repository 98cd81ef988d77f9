import Foundation

/// Sightings as JSON Lines: one JSON object per line, `{"t":…,"device":…,"node":…,"rssi":…}`.
///
/// A sighting of a beacon identity uses `"beacon":"UUID/major/minor"` instead of `"node"`;
/// `"tx"` (dBm at 1 m) is optional.
public enum SightingsJSONLines {
    /// Reads JSON Lines, keeping good lines and reporting bad ones with their line numbers.
    public static func parse(_ text: String, file: String = "sightings.jsonl") -> Parsed<Sighting> {
        var result = Parsed<Sighting>()
        var lineNumber = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            guard !line.allSatisfy({ $0 == " " || $0 == "\r" }) else { continue }
            do {
                result.rows.append(
                    try JSONFormat.decode(Sighting.self, from: Data(line.utf8), file: file, line: lineNumber))
            } catch let error as FormatError {
                result.problems.append(error)
            } catch {
                result.problems.append(
                    FormatError(code: .invalidJSON, file: file, line: lineNumber, message: "\(error)"))
            }
        }
        return result
    }

    /// Writes one compact JSON object per sighting, keys sorted.
    public static func text(_ sightings: [Sighting]) throws -> String {
        let encoder = JSONFormat.encoder()
        var text = ""
        for sighting in sightings {
            text += String(decoding: try encoder.encode(sighting), as: UTF8.self) + "\n"
        }
        return text
    }
}
