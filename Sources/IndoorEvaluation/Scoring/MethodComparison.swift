import IndoorModel
import IndoorPositioning

/// Runs several catalogued positioning methods on one dataset: what `indoor evaluate` and `indoor demo` do.
///
/// Each method's engine is built by one ``EngineFactory`` with the dataset's nodes and its `train/` split as the
/// survey (the calibration fitted on it once, by ``CalibrationFitter``, and what `auto` and `particle-filter` learn,
/// are shared), so every catalogued method is scored the same way.
public enum MethodComparison {
    /// Scores each method of `methods` (names from ``MethodCatalog``) on `dataset`'s test split, held in memory,
    /// one method after the other (``Evaluator/score(_:on:name:zones:progress:answered:)``).
    ///
    /// - Parameters:
    ///   - dataset: The dataset; only `test/` is scored.
    ///   - methods: Method names, in report order.
    ///   - calibration: A calibration to use (for example from `indoor calibrate`) instead of fitting one on the
    ///     survey; fingerprinting methods still learn from the survey.
    ///   - zones: The venue's zones, for the room scores (``MethodScore/rooms``); none by default.
    ///   - floorPlan: The venue's walls and floor connections, for the particle filter's motion model; none by default.
    ///   - configuration: The engines' tuning (``PositioningEngine/Configuration``; the default by default).
    ///   - unavailable: When given, a method whose engine cannot be built (for example one that needs a
    ///     survey the dataset lacks) is reported here and left out; when `nil`, the error is thrown.
    ///   - answered: Told each truth row and a method's answer to it, method by method and device by device
    ///     (``RowReport``).
    ///   - progress: Called after each truth row with (method, rows done, rows in all for that method).
    /// - Throws: ``UnknownMethodError`` for a name the catalogue lacks, or what building the engine throws.
    public static func run(
        dataset: Dataset, methods: [String], calibration given: Calibration? = nil, zones: [Zone] = [],
        floorPlan: FloorPlan? = nil,
        configuration: PositioningEngine.Configuration = PositioningEngine.Configuration(),
        unavailable: ((_ method: String, _ error: any Error) -> Void)? = nil,
        answered: (_ method: String, _ row: TruthPoint, _ result: Result<Fix, NoFix>) -> Void = { _, _, _ in },
        progress: (_ method: String, _ done: Int, _ total: Int) -> Void = { _, _, _ in }
    ) throws -> [MethodScore] {
        try engines(
            methods, nodes: dataset.nodes, survey: dataset.train, calibration: given, floorPlan: floorPlan,
            configuration: configuration, unavailable: unavailable
        )
        .map { name, engine in
            Evaluator.score(
                engine, on: dataset.test, name: name, zones: zones, progress: { progress(name, $0, $1) },
                answered: { answered(name, $0, $1) })
        }
    }

    /// Scores each method of `methods` on the test split of a dataset opened for streaming, all in one pass over
    /// its files (``Evaluator/score(_:sightings:truth:zones:limit:observe:answered:progress:)``), holding no test row.
    ///
    /// On time-sorted files the scores are those of
    /// ``run(dataset:methods:calibration:zones:floorPlan:configuration:unavailable:answered:progress:)``.
    /// - Parameters:
    ///   - dataset: The opened dataset; its test streams are read (the survey was read when it was opened), its
    ///     zones give the rooms scored, its floor plan the particle filter's walls and stairs.
    ///   - methods: Method names, in report order.
    ///   - calibration: A calibration to use instead of fitting one on the survey.
    ///   - configuration: The engines' tuning (``PositioningEngine/Configuration``; the default by default).
    ///   - limit: Score only the first `limit` truth rows (reading no further than they need).
    ///   - unavailable: When given, a method whose engine cannot be built is reported here and left out; when
    ///     `nil`, the error is thrown (before any test row is read).
    ///   - observe: Told every test sighting read.
    ///   - learning: Told before each method's engine is built (methods built so far, methods in all), and once all
    ///     are: building is where methods learn from the survey (seconds to minutes for `auto` on a large venue).
    ///   - learningPhases: Told how far each long phase of that learning has got (``EngineFactory/progress``).
    ///   - answered: Told each truth row and each method's answer to it, in the order scored (``RowReport``).
    ///   - progress: Called after each truth row with (rows done, bytes of both test files read).
    /// - Returns: The scores, in the order of `methods`, and the number of truth rows scored.
    /// - Throws: ``UnknownMethodError``, what building an engine throws, or the ``FormatError`` of a bad or
    ///   unsorted test row (code ``FormatError/Code/unsorted``: score in memory instead).
    public static func run(
        streaming dataset: inout StreamedDataset, methods: [String], calibration given: Calibration? = nil,
        configuration: PositioningEngine.Configuration = PositioningEngine.Configuration(),
        limit: Int? = nil, unavailable: ((_ method: String, _ error: any Error) -> Void)? = nil,
        observe: (Sighting) -> Void = { _ in }, learning: (_ built: Int, _ total: Int) -> Void = { _, _ in },
        learningPhases: LearningProgress? = nil,
        answered: (_ method: String, _ row: TruthPoint, _ result: Result<Fix, NoFix>) -> Void = { _, _, _ in },
        progress: (_ rows: Int, _ bytesRead: Int) -> Void = { _, _ in }
    ) throws -> (scores: [MethodScore], rows: Int) {
        let engines = try engines(
            methods, nodes: dataset.nodes, survey: dataset.train, calibration: given, floorPlan: dataset.floorPlan,
            configuration: configuration, unavailable: unavailable, learning: learning,
            learningPhases: learningPhases)
        return try Evaluator.score(
            engines, sightings: &dataset.sightings, truth: &dataset.truth, zones: dataset.zones, limit: limit,
            observe: observe, answered: { answered(engines[$0].name, $1, $2) },
            progress: progress)
    }

    /// The engines of `methods` that can be built, with their names, in order; the others told to `unavailable`.
    ///
    /// The calibration every engine would fit on the survey is fitted once for all of them, unless `given`, and what
    /// several learn alike is learned once (``EngineFactory``).
    /// - Throws: What building an engine throws, when `unavailable` is `nil`.
    private static func engines(
        _ methods: [String], nodes: [Node], survey: Recording?, calibration given: Calibration?, floorPlan: FloorPlan?,
        configuration: PositioningEngine.Configuration, unavailable: ((_ method: String, _ error: any Error) -> Void)?,
        learning: (_ built: Int, _ total: Int) -> Void = { _, _ in }, learningPhases: LearningProgress? = nil
    ) throws -> [(name: String, engine: PositioningEngine)] {
        let factory = EngineFactory(
            nodes: nodes, survey: survey, calibration: given, configuration: configuration, floorPlan: floorPlan,
            progress: learningPhases)
        var engines: [(name: String, engine: PositioningEngine)] = []
        defer { learning(methods.count, methods.count) }
        for (built, name) in methods.enumerated() {
            learning(built, methods.count)
            do {
                engines.append((name, try factory.engine(method: name)))
            } catch {
                guard let unavailable else { throw error }
                unavailable(name, error)
            }
        }
        return engines
    }
}
