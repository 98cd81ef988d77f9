import Foundation

/// Sightings as JSON Lines: one JSON object per line, `{"t":…,"device":…,"node":…,"rssi":…}`.
///
/// A sighting of a beacon identity uses `"beacon":"UUID/major/minor"` instead of `"node"`;
/// `"tx"` (dBm at 1 m) is optional.
public enum SightingsJSONLines {
    /// Reads JSON Lines, keeping good lines and reporting bad ones with their line numbers.
    ///
    /// A line is refused (a problem naming it; the other lines are kept) when it is not a JSON object, lacks a
    /// field, or holds a sighting that ``Sighting/problem`` refuses, such as
    /// `live.jsonl:4: rssi '1000' is outside the physical range −130…20 dBm`. A file without any line (empty,
    /// or only blank lines) is one problem, `file is empty`, at line 1: like a CSV without a header row, it
    /// is most likely the wrong file, and a replay or a score over nothing would mislead.
    public static func parse(_ text: String, file: String = "sightings.jsonl") -> Parsed<Sighting> {
        var result = Parsed<Sighting>()
        var lineNumber = 0
        var sawLine = false
        // A byte-order mark (some editors write one) is not part of the first line's JSON.
        let text = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            guard !line.allSatisfy({ $0 == " " || $0 == "\r" || $0 == "\t" }) else { continue }
            sawLine = true
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
        if !sawLine {
            result.problems.append(
                FormatError(
                    code: .invalidJSON, file: file, line: 1,
                    message: "file is empty; expected one JSON sighting object per line"))
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
