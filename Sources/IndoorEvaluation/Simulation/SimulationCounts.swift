/// How many rows each file of a simulated dataset holds (for its README and the command's summary).
public struct SimulationCounts: Hashable, Sendable {
    /// Rows of `train/sightings.csv`.
    public var trainSightings = 0
    /// Rows of `train/truth.csv`.
    public var trainTruth = 0
    /// Rows of `test/sightings.csv`.
    public var testSightings = 0
    /// Rows of `test/truth.csv`.
    public var testTruth = 0

    /// All zero; count rows with ``add(sightingOf:)`` and ``add(truthOf:)``.
    public init() {}

    /// Counts one more sighting of `split`.
    public mutating func add(sightingOf split: Simulator.Split) {
        switch split {
        case .train: trainSightings += 1
        case .test: testSightings += 1
        }
    }

    /// Counts one more truth row of `split`.
    public mutating func add(truthOf split: Simulator.Split) {
        switch split {
        case .train: trainTruth += 1
        case .test: testTruth += 1
        }
    }
}
