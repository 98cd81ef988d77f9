import IndoorPositioning

/// What a ``LocationSession`` does when its positioning method cannot answer a locate.
///
/// Trilaterating methods need three nodes that are not on one line; a device that hears one or two beacons,
/// or hears them along a corridor, gets no fix from them. A fallback method that works from one node answers
/// those locates instead, and the fix's ``IndoorModel/Fix/method`` says which method gave it.
public struct FallbackPolicy: Hashable, Sendable {
    /// The method that answers when the session's method cannot; `nil` for no fallback.
    public var method: MethodCatalog.Method?
    /// The failures of the session's method that the fallback answers.
    public var codes: Set<NoFix.Code>

    /// The failures a fallback answers by default: too few nodes, nodes on one line, and no plausible answer.
    public static let defaultCodes: Set<NoFix.Code> = [.tooFewNodes, .degenerateGeometry, .noSolution]

    /// No fallback: a locate the method cannot answer gives no fix.
    public static let none = FallbackPolicy(method: nil)

    /// Weighted centroid (works from one node) for the ``defaultCodes``: the default.
    public static let weightedCentroid = FallbackPolicy(method: .weightedCentroid)

    /// A fallback of `method` for the failures in `codes` (``none`` and ``weightedCentroid`` are the usual two).
    /// - Parameters:
    ///   - method: The catalogue method that answers in place of the session's method; `nil` for none.
    ///   - codes: Which failures of the session's method it answers (default ``defaultCodes``).
    public init(method: MethodCatalog.Method?, codes: Set<NoFix.Code> = FallbackPolicy.defaultCodes) {
        self.method = method
        self.codes = codes
    }
}
