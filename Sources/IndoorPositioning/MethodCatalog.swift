import IndoorModel

/// The positioning methods selectable by name (`indoor evaluate --method NAME`).
public enum MethodCatalog {
    /// Every method name, in the order reports list them.
    public static let names: [String] = ["weighted-centroid"]

    /// The default method for new users.
    public static let defaultName = "weighted-centroid"

    /// An engine running the method called `name` over `nodes`.
    ///
    /// - Parameters:
    ///   - name: One of ``names``.
    ///   - nodes: The fixed radios.
    ///   - survey: Sightings with truth (a dataset's `train/`), for methods that calibrate or learn from it.
    /// - Throws: ``UnknownMethodError`` when no method has that name.
    public static func engine(method name: String, nodes: [Node], survey: Recording? = nil) throws -> PositioningEngine {
        switch name {
        case "weighted-centroid":
            return PositioningEngine(nodes: nodes, method: WeightedCentroid())
        default:
            throw UnknownMethodError(name: name, known: names)
        }
    }
}

/// A method name that no method answers to.
public struct UnknownMethodError: Error, Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var known: [String]
    public var description: String {
        "unknown method '\(name)'; known methods: \(known.joined(separator: ", "))"
    }
}
