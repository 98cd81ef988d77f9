import Foundation

/// The part of JSON Schema (2020-12, as OpenAPI 3.1 uses it) that the server's OpenAPI document uses, to check
/// the JSON the types write against the document: `$ref` (`#/…` in the document), `type`, `enum`, `const`,
/// `required`, `properties`, `additionalProperties`, `items`, `minItems`, `maxItems`, `uniqueItems`,
/// `minLength`, `pattern` (as `NSRegularExpression` reads it), `minimum`, `maximum`, `exclusiveMinimum`, `allOf`,
/// `anyOf`, `oneOf` and `not`. A keyword it does not know fails the check, so that the document cannot outgrow the
/// validator unnoticed.
struct SchemaValidator {
    /// The whole document, for `$ref`.
    let document: JSONValue

    static let keywords: Set<String> = [
        "$ref", "type", "enum", "const", "required", "properties", "additionalProperties", "items", "minItems",
        "maxItems", "uniqueItems", "minLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "allOf", "anyOf",
        "oneOf",
        "not", "description", "default", "format",
    ]

    /// The problems of `value` against the component schema `name`, each naming its path; empty when it conforms.
    func problems(_ value: JSONValue, schema name: String) -> [String] {
        problems(value, against: .object(["$ref": .string("#/components/schemas/\(name)")]), at: "$")
    }

    /// The problems of `value` against `schema`, at `path`.
    func problems(_ value: JSONValue, against schema: JSONValue, at path: String) -> [String] {
        guard case .object(let keywords) = schema else { return ["\(path): the schema is not an object"] }
        var found: [String] = []
        for keyword in keywords.keys where !Self.keywords.contains(keyword) {
            found.append("\(path): the validator does not know the keyword '\(keyword)'")
        }
        if let reference = keywords["$ref"]?.string {
            guard let target = resolve(reference) else { return found + ["\(path): unresolved $ref \(reference)"] }
            found += problems(value, against: target, at: path)
        }
        found += typeProblems(value, keywords, at: path)
        if let allowed = keywords["enum"]?.array, !allowed.contains(value) {
            found.append("\(path): \(value) is not one of \(allowed)")
        }
        if let constant = keywords["const"], constant != value {
            found.append("\(path): \(value) is not \(constant)")
        }
        found += objectProblems(value, keywords, at: path)
        found += arrayProblems(value, keywords, at: path)
        found += scalarProblems(value, keywords, at: path)
        found += combinationProblems(value, keywords, at: path)
        return found
    }

    /// The paths of the object members in `value` that the component schema `name` does not name in a `properties`
    /// (its own, or those of its `$ref`, `allOf`, `anyOf` and `oneOf`), nor takes as `additionalProperties`: the
    /// keys a writer uses that the document does not describe. Empty when every key is described.
    func undeclaredKeys(_ value: JSONValue, schema name: String) -> [String] {
        undeclaredKeys(value, against: .object(["$ref": .string("#/components/schemas/\(name)")]), at: "$")
    }

    private func undeclaredKeys(_ value: JSONValue, against schema: JSONValue, at path: String) -> [String] {
        let parts = flattened(schema)
        switch value {
        case .object(let members):
            var found: [String] = []
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                if let declared = parts.lazy.compactMap({ $0["properties"]?[name] }).first {
                    found += undeclaredKeys(member, against: declared, at: "\(path).\(name)")
                } else if let additional = parts.lazy.compactMap({ $0["additionalProperties"] }).first,
                    case .object = additional
                {
                    found += undeclaredKeys(member, against: additional, at: "\(path).\(name)")
                } else {
                    found.append("\(path).\(name)")
                }
            }
            return found
        case .array(let elements):
            guard let items = parts.lazy.compactMap({ $0["items"] }).first else { return [] }
            return elements.enumerated().flatMap { index, element in
                undeclaredKeys(element, against: items, at: "\(path)[\(index)]")
            }
        default:
            return []
        }
    }

    /// `schema` and every schema it refers to or combines (`$ref`, `allOf`, `anyOf`, `oneOf`), outermost first.
    private func flattened(_ schema: JSONValue) -> [JSONValue] {
        var parts = [schema]
        if let reference = schema["$ref"]?.string, let target = resolve(reference) { parts += flattened(target) }
        for combination in ["allOf", "anyOf", "oneOf"] {
            for branch in schema[combination]?.array ?? [] { parts += flattened(branch) }
        }
        return parts
    }

    private func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: JSONValue? = document
        for part in reference.dropFirst(2).split(separator: "/") { node = node?[String(part)] }
        return node
    }

    private func typeProblems(_ value: JSONValue, _ keywords: [String: JSONValue], at path: String) -> [String] {
        guard let type = keywords["type"] else { return [] }
        let names = type.array?.compactMap(\.string) ?? type.string.map { [$0] } ?? []
        let matches = names.contains { name in
            switch (name, value) {
            case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array),
                ("object", .object):
                true
            case ("integer", .number(let number)): number.rounded() == number
            default: false
            }
        }
        return matches ? [] : ["\(path): \(value) is not of type \(names.joined(separator: " or "))"]
    }

    private func objectProblems(_ value: JSONValue, _ keywords: [String: JSONValue], at path: String) -> [String] {
        guard case .object(let members) = value else { return [] }
        var found: [String] = []
        for name in keywords["required"]?.array?.compactMap(\.string) ?? [] where members[name] == nil {
            found.append("\(path): missing required '\(name)'")
        }
        let properties: [String: JSONValue]
        if case .object(let declared) = keywords["properties"] { properties = declared } else { properties = [:] }
        for (name, member) in members {
            if let schema = properties[name] {
                found += problems(member, against: schema, at: "\(path).\(name)")
            } else if let additional = keywords["additionalProperties"] {
                if additional == .bool(false) {
                    found.append("\(path): '\(name)' is not allowed")
                } else if case .object = additional {
                    found += problems(member, against: additional, at: "\(path).\(name)")
                }
            }
        }
        return found
    }

    private func arrayProblems(_ value: JSONValue, _ keywords: [String: JSONValue], at path: String) -> [String] {
        guard case .array(let elements) = value else { return [] }
        var found: [String] = []
        if let minimum = keywords["minItems"]?.number, Double(elements.count) < minimum {
            found.append("\(path): \(elements.count) items, fewer than \(minimum)")
        }
        if let maximum = keywords["maxItems"]?.number, Double(elements.count) > maximum {
            found.append("\(path): \(elements.count) items, more than \(maximum)")
        }
        if keywords["uniqueItems"] == .bool(true) {
            for (index, element) in elements.enumerated() where elements[..<index].contains(element) {
                found.append("\(path)[\(index)]: \(element) is listed twice")
            }
        }
        if let items = keywords["items"] {
            for (index, element) in elements.enumerated() {
                found += problems(element, against: items, at: "\(path)[\(index)]")
            }
        }
        return found
    }

    private func scalarProblems(_ value: JSONValue, _ keywords: [String: JSONValue], at path: String) -> [String] {
        var found: [String] = []
        if case .string(let text) = value, let minimum = keywords["minLength"]?.number, Double(text.count) < minimum {
            found.append("\(path): '\(text)' is shorter than \(minimum)")
        }
        if case .string(let text) = value, let pattern = keywords["pattern"]?.string {
            if let expression = try? NSRegularExpression(pattern: pattern) {
                let whole = NSRange(text.startIndex..<text.endIndex, in: text)
                if expression.firstMatch(in: text, range: whole) == nil {
                    found.append("\(path): '\(text)' does not match \(pattern)")
                }
            } else {
                found.append("\(path): the pattern \(pattern) is not a regular expression")
            }
        }
        guard case .number(let number) = value else { return found }
        if let minimum = keywords["minimum"]?.number, number < minimum {
            found.append("\(path): \(number) is less than \(minimum)")
        }
        if let maximum = keywords["maximum"]?.number, number > maximum {
            found.append("\(path): \(number) is more than \(maximum)")
        }
        if let bound = keywords["exclusiveMinimum"]?.number, number <= bound {
            found.append("\(path): \(number) is not more than \(bound)")
        }
        return found
    }

    private func combinationProblems(_ value: JSONValue, _ keywords: [String: JSONValue], at path: String)
        -> [String]
    {
        var found: [String] = []
        for schema in keywords["allOf"]?.array ?? [] {
            found += problems(value, against: schema, at: path)
        }
        if let options = keywords["anyOf"]?.array,
            !options.contains(where: { problems(value, against: $0, at: path).isEmpty })
        {
            found.append("\(path): matches none of anyOf")
        }
        if let options = keywords["oneOf"]?.array {
            let matching = options.filter { problems(value, against: $0, at: path).isEmpty }.count
            if matching != 1 { found.append("\(path): matches \(matching) of oneOf, not exactly 1") }
        }
        if let excluded = keywords["not"], problems(value, against: excluded, at: path).isEmpty {
            found.append("\(path): matches the schema of 'not'")
        }
        return found
    }
}
