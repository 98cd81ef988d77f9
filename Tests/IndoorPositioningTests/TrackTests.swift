import Foundation
import IndoorModel
import IndoorRanging
import Testing

@testable import IndoorPositioning

/// The constant-velocity position tracker and the engine's `+track` methods.
@Suite struct TrackTests {
    static let settings = PositionTrack.Configuration()

    static func fix(x: Double, y: Double, accuracy: Double = 1, floor: Int? = nil) -> Estimate {
        Estimate(position: Point3D(x: x, y: y, z: 1.2), floor: floor, accuracy: accuracy, confidence: 0.8)
    }

    @Test func learnsAConstantVelocityAndPredictsWithIt() {
        var track = PositionTrack(Self.fix(x: 0, y: 0), at: 0, configuration: Self.settings)
        for second in 1...30 {
            track.update(
                with: Self.fix(x: 1.2 * Double(second), y: 0.5 * Double(second)), at: Double(second),
                configuration: Self.settings)
        }
        #expect(abs(track.vx - 1.2) < 0.05)
        #expect(abs(track.vy - 0.5) < 0.05)
        #expect(abs(track.x - 36) < 0.1)
        let ahead = track.predicted(to: 32, configuration: Self.settings)
        #expect(abs(ahead.x - 38.4) < 0.2)
        #expect(abs(ahead.y - 16) < 0.2)
        // Uncertainty grows with the prediction horizon.
        #expect(ahead.pp > track.pp)
        #expect(track.predicted(to: 10, configuration: Self.settings) == track)
    }

    @Test func averagesNoisyFixesOfAStandingDevice() {
        var random = SplitMix64(seed: 4)
        var track = PositionTrack(Self.fix(x: 5, y: 5, accuracy: 2), at: 0, configuration: Self.settings)
        var fixErrors = 0.0
        var trackErrors = 0.0
        for second in 1...200 {
            let x = 5 + 1.4 * random.standardNormal()
            let y = 5 + 1.4 * random.standardNormal()
            track.update(with: Self.fix(x: x, y: y, accuracy: 2), at: Double(second), configuration: Self.settings)
            if second > 20 {
                fixErrors += (x - 5) * (x - 5) + (y - 5) * (y - 5)
                trackErrors += (track.x - 5) * (track.x - 5) + (track.y - 5) * (track.y - 5)
            }
        }
        // Smoothing at least halves the mean squared error of the raw fixes.
        #expect(trackErrors < 0.5 * fixErrors)
    }

    @Test func oneOutlierIsIgnoredAndARunOfThemRestartsTheTrack() {
        var track = PositionTrack(Self.fix(x: 0, y: 0), at: 0, configuration: Self.settings)
        for second in 1...5 {
            track.update(with: Self.fix(x: 0, y: 0), at: Double(second), configuration: Self.settings)
        }
        track.update(with: Self.fix(x: 40, y: 0), at: 6, configuration: Self.settings)
        #expect(abs(track.x) < 0.5)
        track.update(with: Self.fix(x: 40, y: 0), at: 7, configuration: Self.settings)
        #expect(abs(track.x) < 0.5)  // two in a row are still outliers (outliersBeforeReset = 2)
        track.update(with: Self.fix(x: 40, y: 0), at: 8, configuration: Self.settings)
        #expect(track.x == 40 && track.vx == 0)
    }

    @Test func aLongGapOrAnotherFloorRestartsTheTrack() {
        var track = PositionTrack(Self.fix(x: 0, y: 0, floor: 0), at: 0, configuration: Self.settings)
        track.update(with: Self.fix(x: 1, y: 0, floor: 0), at: 1, configuration: Self.settings)
        track.update(with: Self.fix(x: 3, y: 0, floor: 1), at: 2, configuration: Self.settings)
        #expect(track.x == 3 && track.floor == 1 && track.time == 2)
        track.update(with: Self.fix(x: 9, y: 9, floor: 1), at: 20, configuration: Self.settings)
        #expect(track.x == 9 && track.y == 9 && track.vx == 0)
    }

    let nodes = [
        Node(id: "a", position: Point3D(x: 0, y: 0, z: 2.5)), Node(id: "b", position: Point3D(x: 20, y: 0, z: 2.5)),
        Node(id: "c", position: Point3D(x: 20, y: 20, z: 2.5)), Node(id: "d", position: Point3D(x: 0, y: 20, z: 2.5)),
    ]

    /// A device walking at 1 m/s along y = 10, each node heard twice a second with σ dB shadowing.
    func walk(seconds: Int, sigma: Double, seed: UInt64) -> [Sighting] {
        var random = SplitMix64(seed: seed)
        var sightings: [Sighting] = []
        for tick in 0..<(seconds * 2) {
            let time = Double(tick) / 2
            let device = Point3D(x: 2 + time, y: 10, z: 1.2)
            for node in nodes {
                let rssi =
                    LogDistance.rssi(meters: node.position.distance(to: device), calibration: .typical)
                    + sigma * random.standardNormal()
                sightings.append(Sighting(time: time + 0.01, device: "w", node: node.id, rssi: rssi))
            }
        }
        return sightings
    }

    @Test func aTrackedEngineIsDeterministicAndAskingDoesNotChangeIt() throws {
        let method = NonlinearLeastSquares(deviceHeight: 1.2)
        let tracking = PositioningEngine.Configuration(tracking: PositionTrack.Configuration())
        var first = PositioningEngine(nodes: nodes, method: method, configuration: tracking)
        var second = PositioningEngine(nodes: nodes, method: method, configuration: tracking)
        #expect(first.methodName == "nonlinear+track")
        let sightings = walk(seconds: 12, sigma: 3, seed: 9)
        first.ingest(sightings)
        second.ingest(sightings)
        let a = try first.locate(device: "w", at: 12).get()
        let again = try first.locate(device: "w", at: 12).get()
        let b = try second.locate(device: "w", at: 12).get()
        #expect(a == again && a == b)
        #expect(a.method == "nonlinear+track")
        #expect(a.position.horizontal.distance(to: Point2D(x: 14, y: 10)) < 3)
    }

    @Test func trackingReducesTheErrorOfAWalkingDevice() {
        let height = 1.2
        var plain = PositioningEngine(nodes: nodes, method: NonlinearLeastSquares(deviceHeight: height))
        var tracked = PositioningEngine(
            nodes: nodes, method: NonlinearLeastSquares(deviceHeight: height), configuration: .init(tracking: .init()))
        var plainError = 0.0
        var trackedError = 0.0
        var next = 0
        let sightings = walk(seconds: 16, sigma: 6, seed: 3)
        for second in 1...16 {
            let time = Double(second)
            while next < sightings.count, sightings[next].time <= time {
                plain.ingest(sightings[next])
                tracked.ingest(sightings[next])
                next += 1
            }
            let truth = Point2D(x: 2 + time, y: 10)
            if case .success(let fix) = plain.locate(device: "w", at: time) {
                plainError += fix.position.horizontal.distance(to: truth)
            }
            if case .success(let fix) = tracked.locate(device: "w", at: time) {
                trackedError += fix.position.horizontal.distance(to: truth)
            }
        }
        #expect(plainError > 0)
        #expect(trackedError < plainError, "tracked \(trackedError) m vs plain \(plainError) m in all")
    }

    @Test func aSingleBurstOfSightingsStartsNoTrack() throws {
        var plain = PositioningEngine(nodes: nodes, method: NonlinearLeastSquares(deviceHeight: 1.2))
        var tracked = PositioningEngine(
            nodes: nodes, method: NonlinearLeastSquares(deviceHeight: 1.2), configuration: .init(tracking: .init()))
        let burst = walk(seconds: 1, sigma: 4, seed: 5).filter { $0.time < 0.5 }
        plain.ingest(burst)
        tracked.ingest(burst)
        let a = try plain.locate(device: "w", at: 0.5).get()
        let b = try tracked.locate(device: "w", at: 0.5).get()
        #expect(a.position == b.position && a.accuracy == b.accuracy)
    }

    @Test func anyCatalogMethodTakesTheTrackSuffix() throws {
        let engine = try MethodCatalog.engine(method: "weighted-centroid+track", nodes: nodes)
        #expect(engine.methodName == "weighted-centroid+track")
        #expect(throws: UnknownMethodError.self) { try MethodCatalog.engine(method: "magic+track", nodes: nodes) }
        #expect(throws: UnknownMethodError.self) { try MethodCatalog.engine(method: "+track", nodes: nodes) }
        #expect(throws: MissingSurveyError.self) { try MethodCatalog.engine(method: "knn+track", nodes: nodes) }
    }
}
