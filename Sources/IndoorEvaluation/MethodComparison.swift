import IndoorModel
import IndoorPositioning

/// Runs several catalogued positioning methods on one dataset: what `indoor evaluate` and `indoor demo` do.
public enum MethodComparison {
    /// Scores each method of `methods` (names from ``MethodCatalog``) on `dataset`'s test split.
    ///
    /// Each method's engine is built by ``MethodCatalog/engine(method:nodes:survey:calibration:configuration:)``
    /// with the dataset's nodes and its `train/` split as the survey (the calibration fitted on it once, by
    /// ``CalibrationFitter``, is shared), so every catalogued method is scored the same way.
    /// - Parameters:
    ///   - dataset: The dataset; only `test/` is scored.
    ///   - methods: Method names, in report order.
    ///   - calibration: A calibration to use (for example from `indoor calibrate`) instead of fitting one on the
    ///     survey; fingerprinting methods still learn from the survey.
    ///   - unavailable: When given, a method whose engine cannot be built (for example one that needs a
    ///     survey the dataset lacks) is reported here and left out; when `nil`, the error is thrown.
    ///   - progress: Called after each truth row with (method, rows done, rows in all for that method).
    /// - Throws: ``UnknownMethodError`` for a name the catalogue lacks, or what building the engine throws.
    public static func run(
        dataset: Dataset, methods: [String], calibration given: Calibration? = nil,
        unavailable: ((_ method: String, _ error: any Error) -> Void)? = nil,
        progress: (_ method: String, _ done: Int, _ total: Int) -> Void = { _, _, _ in }
    ) throws -> [MethodScore] {
        var scores: [MethodScore] = []
        // The calibration every engine would fit on the survey, fitted once for all of them.
        let calibration = given ?? dataset.train.map { CalibrationFitter().fit(nodes: dataset.nodes, survey: $0) }
        for name in methods {
            let engine: PositioningEngine
            do {
                engine = try MethodCatalog.engine(
                    method: name, nodes: dataset.nodes, survey: dataset.train, calibration: calibration)
            } catch {
                guard let unavailable else { throw error }
                unavailable(name, error)
                continue
            }
            scores.append(Evaluator.score(engine, on: dataset.test, name: name) { progress(name, $0, $1) })
        }
        return scores
    }
}
