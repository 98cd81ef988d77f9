import Foundation
import IndoorModel
import IndoorRanging
import Testing

@testable import IndoorPositioning

/// `auto` without a survey reads each node's RSSI through its own filter (``AutoMethod/readingFilterWithoutSurvey``),
/// which follows a change sooner than the engine's default; the other methods keep the engine's filter.
@Suite struct AutoReadingFilterTests {
    static let nodes = [
        Node(id: "a", position: Point3D(x: 0, y: 0, z: 2.5)), Node(id: "b", position: Point3D(x: 10, y: 0, z: 2.5)),
        Node(id: "c", position: Point3D(x: 0, y: 10, z: 2.5)), Node(id: "d", position: Point3D(x: 10, y: 10, z: 2.5)),
    ]

    static func engine(_ method: String, tuning: [(String, Double)] = []) throws -> PositioningEngine {
        var configuration = PositioningEngine.Configuration()
        for (name, value) in tuning { try configuration.defaultTuning.set(name, to: value) }
        return try EngineFactory(nodes: nodes, configuration: configuration).engine(method: method)
    }

    @Test func autoWithoutASurveyReadsItsOwnFilterAndTheOthersTheEngines() throws {
        let standard = PositioningEngine.Configuration().filter
        #expect(AutoMethod.readingFilterWithoutSurvey != standard)
        #expect(try Self.engine("auto").configuration.filter == AutoMethod.readingFilterWithoutSurvey)
        #expect(try Self.engine("auto+track").configuration.filter == AutoMethod.readingFilterWithoutSurvey)
        #expect(
            try Self.engine("auto", tuning: [("reading-noise", 4)]).configuration.filter
                == .kalman(processNoise: 4, measurementNoise: 16))
        #expect(try Self.engine("weighted-centroid").configuration.filter == standard)
        #expect(try Self.engine("posterior").configuration.filter == standard)
        // Tracked by the particle filter without a survey, `auto` reads what that filter is given, as before.
        #expect(try Self.engine("auto", tuning: [("no-survey-filter", 1)]).configuration.filter == standard)
    }

    /// A device walks towards node `a`: its RSSI steps from −80 to −65 dBm. Two seconds later (four samples) `auto`'s
    /// reading has followed further than the engine's default filter has.
    @Test func itsReadingFollowsAStepSooner() throws {
        var auto = try Self.engine("auto")
        var centroid = try Self.engine("weighted-centroid")
        var time = 0.0
        for rssi in Array(repeating: -80.0, count: 10) + Array(repeating: -65.0, count: 4) {
            time += 0.5
            let sighting = Sighting(time: time, device: "p", node: "a", rssi: rssi)
            auto.ingest(sighting)
            centroid.ingest(sighting)
        }
        let fast = try #require(auto.readings(device: "p", at: time).first { $0.node.id == "a" }?.rssi)
        let slow = try #require(centroid.readings(device: "p", at: time).first { $0.node.id == "a" }?.rssi)
        #expect(fast > slow + 1, "auto reads \(fast) dBm, the engine's filter \(slow) dBm")
        #expect(fast < -65 && slow > -80)
    }
}
