import Foundation

/// One GeoJSON feature of an IMDF file: its id, feature type, geometry and properties, and where it is (for errors).
struct IMDFFeature: Hashable, Sendable {
    /// The file within the archive.
    var file: String
    /// Its index in the file's `features`.
    var index: Int
    /// The feature's `id`.
    var id: String
    /// The feature's `feature_type` (the file's type when the feature does not say).
    var type: String
    /// The `geometry` member; `.null` when absent.
    var geometry: IMDFJSON
    /// The `properties` member; `.null` when absent.
    var properties: IMDFJSON

    /// The JSON path of a member of this feature: `features[3].properties.level_id`.
    func path(_ member: String) -> String { "features[\(index)].\(member)" }

    /// An error about this feature's `member` (a path below the feature, such as `properties.level_id`).
    func error(at member: String?, _ message: String) -> IMDFError {
        IMDFError(file: file, feature: id, field: member.map(path), message: message)
    }

    /// The property `name`, when it is present and not `null`.
    func property(_ name: String) -> IMDFJSON? {
        guard let value = properties[name], !value.isNull else { return nil }
        return value
    }

    /// The text of property `name`; `nil` when it is absent or `null`.
    /// - Throws: ``IMDFError`` when it is there but not a string.
    func text(_ name: String) throws -> String? {
        guard let value = property(name) else { return nil }
        guard let text = value.string else {
            throw error(at: "properties.\(name)", "expected a string, found \(value.kind)")
        }
        return text
    }

    /// The features of the FeatureCollection `data` of `file`, whose feature type is `type` unless a feature says
    /// otherwise.
    ///
    /// - Throws: ``IMDFError`` naming `file` (and the feature and path) for malformed JSON, a document that is not a
    ///   FeatureCollection, a feature without an `id`.
    static func collection(_ data: Data, file: String, type: String) throws -> [IMDFFeature] {
        let document = try IMDFJSON.parse(data, file: file)
        guard case .object = document else {
            throw IMDFError(file: file, message: "expected a GeoJSON FeatureCollection object, found \(document.kind)")
        }
        guard let features = document["features"]?.array else {
            throw IMDFError(
                file: file, field: "features",
                message: "a GeoJSON FeatureCollection needs a 'features' array")
        }
        return try features.enumerated().map { index, feature in
            guard case .object = feature else {
                throw IMDFError(
                    file: file, field: "features[\(index)]", message: "expected a feature object, found \(feature.kind)"
                )
            }
            let id: String
            switch feature["id"] {
            case .string(let text) where !text.isEmpty: id = text
            case .number(let number) where number.rounded() == number && abs(number) < 1e15:
                id = String(Int64(number))
            default:
                throw IMDFError(
                    file: file, field: "features[\(index)].id",
                    message: "every IMDF feature needs an 'id' (a UUID string)")
            }
            return IMDFFeature(
                file: file, index: index, id: id, type: feature["feature_type"]?.string ?? type,
                geometry: feature["geometry"] ?? .null, properties: feature["properties"] ?? .null)
        }
    }
}
