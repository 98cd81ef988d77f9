import Foundation

/// IMDF LABELS (`{"en": "Lobby", "de": "Eingangshalle"}`): the text in the archive's language.
enum IMDFLabels {
    /// The label of `value` for `language` (the manifest's, such as `en-US`): that tag, else its primary language
    /// (`en`), else English, else the first by tag; a plain string is taken as it is. `nil` for `null`, an empty
    /// object or only empty texts.
    static func text(_ value: IMDFJSON?, language: String) -> String? {
        switch value {
        case .string(let text): return text.isEmpty ? nil : text
        case .object(let labels):
            let primary = language.split(separator: "-").first.map(String.init) ?? language
            for tag in [language, primary, "en"] {
                if let text = labels[tag]?.string, !text.isEmpty { return text }
            }
            for tag in labels.keys.sorted() {
                if let text = labels[tag]?.string, !text.isEmpty { return text }
            }
            return nil
        default: return nil
        }
    }
}
