import IndoorModel
import IndoorPositioning

/// Runs several catalogued positioning methods on one dataset: what `indoor evaluate` and `indoor demo` do.
public enum MethodComparison {
    /// Scores each method of `methods` (names from ``MethodCatalog``) on `dataset`'s test split.
    ///
    /// Each method's engine is built by ``MethodCatalog/engine(method:nodes:survey:)`` with the dataset's
    /// nodes and its `train/` split as the survey, so every catalogued method is scored the same way.
    /// - Parameters:
    ///   - dataset: The dataset; only `test/` is scored.
    ///   - methods: Method names, in report order.
    ///   - progress: Called after each truth row with (method, rows done, rows in all for that method).
    /// - Throws: ``UnknownMethodError`` for a name the catalogue lacks, or what building the engine throws.
    public static func run(
        dataset: Dataset, methods: [String],
        progress: (_ method: String, _ done: Int, _ total: Int) -> Void = { _, _, _ in }
    ) throws -> [MethodScore] {
        var scores: [MethodScore] = []
        for name in methods {
            let engine = try MethodCatalog.engine(method: name, nodes: dataset.nodes, survey: dataset.train)
            scores.append(Evaluator.score(engine, on: dataset.test, name: name) { progress(name, $0, $1) })
        }
        return scores
    }
}
