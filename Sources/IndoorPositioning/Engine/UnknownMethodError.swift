/// A method name that no method answers to.
public struct UnknownMethodError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name that was asked for.
    public var name: String
    /// Every name the catalog knows, for the message.
    public var known: [String]

    /// `name` was asked for; `known` lists the names there are.
    public init(name: String, known: [String] = MethodCatalog.names) {
        self.name = name
        self.known = known
    }

    public var description: String {
        "unknown method '\(name)'; known methods: \(known.joined(separator: ", "))"
    }
}
