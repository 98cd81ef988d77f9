import IndoorModel

/// How one positioning method did on one dataset: the error of every truth row, and its summary.
public struct MethodScore: Hashable, Sendable {
    /// The method's name, as in `indoor evaluate --method`.
    public var method: String
    /// The horizontal error of each located truth row, metres, in the order the rows were scored.
    public var errors: [Double]
    /// Truth rows without a position.
    public var misses: Int
    /// Located rows with a truth floor whose floor was right.
    public var floorHits: Int
    /// Located rows whose truth has a floor.
    public var floorRows: Int

    /// A score: `errors` in metres, one per located truth row.
    public init(method: String, errors: [Double], misses: Int, floorHits: Int = 0, floorRows: Int = 0) {
        self.method = method
        self.errors = errors
        self.misses = misses
        self.floorHits = floorHits
        self.floorRows = floorRows
    }

    /// Count, misses, mean, median, p90, max and floor accuracy.
    public var summary: ErrorSummary {
        ErrorSummary(errors: errors, misses: misses, floorHits: floorHits, floorRows: floorRows)
    }
}
