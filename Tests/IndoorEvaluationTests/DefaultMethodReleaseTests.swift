import Foundation
import IndoorModel
import IndoorPositioning
import IndoorTestSupport
import Testing

@testable import IndoorEvaluation

/// The default method (`auto`) over a survey, exactly: it learns a radio map and its particle filter's weight from the
/// survey first, seconds in a release build but minutes in a debug one. So these run only in
/// the release-build run (``ReleaseBuild``).
@Suite("The default method, exactly (release build)", .releaseBuild)
struct DefaultMethodReleaseTests {
    /// The summary of `auto` on `dataset`: count, misses, mean, median and 90th percentile in metres.
    static func summary(_ dataset: Dataset, floorPlan: FloorPlan? = nil) throws -> [Double] {
        let scores = try MethodComparison.run(
            dataset: dataset, methods: [MethodCatalog.defaultName], floorPlan: floorPlan)
        let summary = try #require(scores.first).summary
        return [
            Double(summary.count), Double(summary.misses), summary.meanMeters ?? .nan, summary.medianMeters ?? .nan,
            summary.p90Meters ?? .nan,
        ]
    }

    static func expect(_ measured: [Double], _ expected: [Double]) {
        #expect(measured.count == expected.count)
        for (value, wanted) in zip(measured, expected) {
            #expect(abs(value - wanted) < 1e-9, "\(measured.map { String($0) }) against \(expected)")
        }
    }

    @Test func kolakowskiFlat() throws {
        let dataset = try DatasetReader.read(folder: try SharedDatasets.folder("kolakowski-flat"))
        let measured = try Self.summary(dataset)
        Self.expect(measured, Self.kolakowskiFlatExpected)
    }

    @Test func theSimulatedOfficeOfTheDemo() throws {
        var options = SimulatorOptions()
        options.seed = 1
        let simulated = try Simulator(options: options).run()
        let measured = try Self.summary(simulated.dataset, floorPlan: FloorPlan(venue: simulated.venue))
        Self.expect(measured, Self.simulatedOfficeExpected)
    }

    /// kolakowski-flat's test rows: count, misses, mean, median, 90th percentile (docs/ACCURACY.md's figures).
    static let kolakowskiFlatExpected = [1026, 0, 1.287649551952022, 0.987332401429515, 2.7774836222982695]
    /// The demo's office, seed 1, with its walls (`indoor demo`'s row).
    static let simulatedOfficeExpected = [1204, 4, 1.2597378806332018, 1.1867871620187302, 2.152580803294335]
}
