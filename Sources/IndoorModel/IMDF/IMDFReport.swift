import Foundation

/// What an IMDF import left out or decided, so that nothing in the archive is dropped without a word.
public struct IMDFReport: Hashable, Sendable {
    /// Features of the archive that have no place in a venue (fixtures, kiosks, sections, …): how many of each
    /// feature type.
    public var unusedFeatures: [String: Int]
    /// Files of the archive that were not read (not GeoJSON, nor the manifest), by their path in the archive.
    public var unusedFiles: [String]
    /// Choices made on the way, one sentence each: the largest polygon of a MultiPolygon level taken, holes of a
    /// polygon left out, an opening on no unit boundary, an opening drawn as a MultiLineString, a floor of units
    /// without any opening, the stairs joined into a connection.
    public var notes: [String]

    /// A report; empty by default.
    init(unusedFeatures: [String: Int] = [:], unusedFiles: [String] = [], notes: [String] = []) {
        self.unusedFeatures = unusedFeatures
        self.unusedFiles = unusedFiles
        self.notes = notes
    }

    /// The notes with those alike merged, in the order each kind first appears: notes that differ only in what they
    /// quote (`'…'`) or in their numbers become one line, `72 × opening '…' lies on no unit boundary of floor …: no
    /// gap was cut for it (for example 'a', 'b', 'c')`; a note seen once is as it was.
    public var groupedNotes: [String] {
        var order: [String] = []
        var groups: [String: [String]] = [:]
        var examples: [String: [String]] = [:]
        for note in notes {
            let (pattern, quoted) = Self.pattern(of: note)
            if groups[pattern] == nil { order.append(pattern) }
            groups[pattern, default: []].append(note)
            if let first = quoted.first, examples[pattern, default: []].count < 3 {
                examples[pattern, default: []].append("'\(first)'")
            }
        }
        return order.compactMap { pattern in
            guard let members = groups[pattern] else { return nil }
            guard members.count > 1 else { return members.first }
            let shown = examples[pattern, default: []].joined(separator: ", ")
            return "\(members.count) × \(pattern)" + (shown.isEmpty ? "" : " (for example \(shown))")
        }
    }

    /// `note` with each quoted text replaced by `'…'` and each number by `…`, and the quoted texts in order.
    static func pattern(of note: String) -> (pattern: String, quoted: [String]) {
        var pattern = ""
        var quoted: [String] = []
        var inQuote = false
        var current = ""
        var lastWasNumber = false
        for character in note {
            if character == "'" {
                if inQuote {
                    quoted.append(current)
                    current = ""
                    pattern += "…'"
                } else {
                    pattern += "'"
                }
                inQuote.toggle()
                lastWasNumber = false
                continue
            }
            if inQuote {
                current.append(character)
            } else if character.isNumber {
                if !lastWasNumber { pattern += "…" }
                lastWasNumber = true
            } else {
                pattern.append(character)
                lastWasNumber = false
            }
        }
        if inQuote { pattern += current }
        return (pattern, quoted)
    }

    /// The unused features as `2 amenity, 1 fixture` (feature types in alphabetical order); empty when all were used.
    public var unusedSummary: String {
        unusedFeatures.keys.sorted().compactMap { type in unusedFeatures[type].map { "\($0) \(type)" } }
            .joined(separator: ", ")
    }
}
