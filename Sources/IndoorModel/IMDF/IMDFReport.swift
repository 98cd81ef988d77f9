import Foundation

/// What an IMDF import left out or decided, so that nothing in the archive is dropped without a word.
public struct IMDFReport: Hashable, Sendable {
    /// Features of the archive that have no place in a venue (amenities, fixtures, kiosks, …): how many of each
    /// feature type.
    public var unusedFeatures: [String: Int]
    /// Files of the archive that were not read (not GeoJSON, nor the manifest), by their path in the archive.
    public var unusedFiles: [String]
    /// Choices made on the way, one sentence each: the largest polygon of a MultiPolygon level taken, holes of a
    /// polygon left out, an opening on no unit boundary, the stairs joined into a connection.
    public var notes: [String]

    /// A report; empty by default.
    init(unusedFeatures: [String: Int] = [:], unusedFiles: [String] = [], notes: [String] = []) {
        self.unusedFeatures = unusedFeatures
        self.unusedFiles = unusedFiles
        self.notes = notes
    }

    /// The unused features as `2 amenity, 1 fixture` (feature types in alphabetical order); empty when all were used.
    public var unusedSummary: String {
        unusedFeatures.keys.sorted().compactMap { type in unusedFeatures[type].map { "\($0) \(type)" } }
            .joined(separator: ", ")
    }
}
