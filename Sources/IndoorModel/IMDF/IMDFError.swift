import Foundation

/// Why an IMDF archive cannot become a venue: the file, the feature and the JSON path it is about, and what was wrong.
///
/// The description reads `unit.geojson: feature 'u-7' (features[3].properties.level_id): level 'l-9' is not a level
/// of level.geojson`, so that the author of the archive can go straight to the place.
public struct IMDFError: Error, Hashable, Sendable {
    /// The file within the archive (`unit.geojson`, `manifest.json`), or the archive itself for a problem of the whole.
    public var file: String
    /// The `id` of the feature the problem is in, when it is a feature's.
    public var feature: String?
    /// The JSON path of the value that was wrong within the file (`features[3].geometry.type`), when there is one.
    public var field: String?
    /// What was wrong and, where it helps, how to fix it.
    public var message: String

    /// A problem in `file` (and its `feature`, at `field`) described by `message`.
    public init(file: String, feature: String? = nil, field: String? = nil, message: String) {
        self.file = file
        self.feature = feature
        self.field = field
        self.message = message
    }
}

extension IMDFError: CustomStringConvertible, LocalizedError {
    public var description: String {
        var text = file
        if let feature { text += ": feature '\(feature)'" }
        if let field { text += feature == nil ? ": \(field)" : " (\(field))" }
        return text + ": " + message
    }

    public var errorDescription: String? { description }
}
