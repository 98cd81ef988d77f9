import Foundation
import IndoorModel
import Testing

@testable import IndoorPositioning

/// The particle filter's walkers keep to a venue's walls and change floor at its stairs.
@Suite("Particle filter with a floor plan")
struct ParticleFilterPlanTests {
    /// A wall across the whole 20 m × 10 m venue (and its grid's margin) at x = 10, on every floor.
    static let wall = Segment(from: Point2D(x: 10, y: -5), to: Point2D(x: 10, y: 15))

    static func floors(_ count: Int, walls: [Segment]) -> [Floor] {
        (0..<count).map { Floor(level: $0, name: "\($0)", outline: Polygon([]), walls: walls) }
    }

    /// The filter of `engine` and the readings of a device at `position` (on `floor`) at `time`.
    static func readings(
        _ engine: inout PositioningEngine, position: Point2D, floor: Int?, nodes: [Node], time: Double,
        random: inout SplitMix64
    ) -> [NodeReading] {
        engine.ingest(
            ParticleFilterTests.sightings(
                at: time, device: "d", position: position, floor: floor, nodes: nodes, random: &random))
        return engine.readings(device: "d", at: time + 0.6)
    }

    /// Runs a cloud started west of the wall while the readings say the device is east of it: the particles'
    /// x coordinates after 40 s. With `lostChance` 0 the cloud never gives way to the readings, so only walking
    /// moves it (``ParticleFilter/Configuration/lostChance``).
    static func pulledAcross(plan: FloorPlan?, lostChance: Double = 0) throws -> [Double] {
        let nodes = ParticleFilterTests.nodes()
        var configuration = PositioningEngine.Configuration()
        configuration.defaultTuning.lostChance = lostChance
        var engine = try MethodCatalog.engine(
            method: "particle-filter", nodes: nodes, configuration: configuration, floorPlan: plan)
        let filter = try #require(engine.method as? ParticleFilter)
        var random = SplitMix64(seed: 4)
        let west = readings(&engine, position: Point2D(x: 6, y: 5), floor: nil, nodes: nodes, time: 0, random: &random)
        var belief = try #require(filter.start(device: "d", readings: west, at: 0.6))
        // Every particle starts west of the wall.
        for i in 0..<belief.count where belief.x[i] >= 9.9 { belief.x[i] = 9.9 - (belief.x[i] - 9.9) / 10 }
        for second in 1...40 {
            let east = readings(
                &engine, position: Point2D(x: 15, y: 5), floor: nil, nodes: nodes, time: Double(second),
                random: &random)
            filter.update(&belief, readings: east, at: Double(second) + 0.6)
        }
        return belief.x
    }

    @Test func particlesNeverWalkThroughAWall() throws {
        let plan = FloorPlan(floors: Self.floors(1, walls: [Self.wall]))
        let walled = try Self.pulledAcross(plan: plan)
        #expect(walled.allSatisfy { $0 < 10 }, "\(walled.filter { $0 >= 10 }.count) particles east of the wall")
        // Without the wall the cloud follows the readings east.
        let open = try Self.pulledAcross(plan: nil)
        #expect(open.filter { $0 > 10 }.count > open.count / 2)
        // Seeded: the same run gives the same cloud.
        #expect(try Self.pulledAcross(plan: plan) == walled)
    }

    /// A cloud walled off from where the readings are has lost its device: by default it gives way to the readings
    /// (CloudRecovery), and seeded, the same run gives the same cloud.
    @Test func aCloudWalledOffFromTheReadingsGivesWayToThem() throws {
        let plan = FloorPlan(floors: Self.floors(1, walls: [Self.wall]))
        let standard = ParticleFilter.Configuration().lostChance
        let recovered = try Self.pulledAcross(plan: plan, lostChance: standard)
        #expect(recovered.filter { $0 > 10 }.count > recovered.count * 9 / 10)
        #expect(try Self.pulledAcross(plan: plan, lostChance: standard) == recovered)
    }

    @Test func aDoorLetsTheCloudThrough() throws {
        let door = [
            Segment(from: Point2D(x: 10, y: -5), to: Point2D(x: 10, y: 4)),
            Segment(from: Point2D(x: 10, y: 6), to: Point2D(x: 10, y: 15)),
        ]
        let east = try Self.pulledAcross(plan: FloorPlan(floors: Self.floors(1, walls: door)))
        #expect(east.filter { $0 > 10 }.count > east.count / 2)
    }

    /// A device standing at (10, 5) on floor 0 of two, one strong reading from the floor above at second 20; stairs
    /// at (1, 1) when `stairs`. The reported floors from second 5 on, and the largest share of particles on floor 1
    /// in the 5 s after the strong reading.
    static func strongReading(stairs: Bool) throws -> (floors: [Int?], share: Double) {
        let nodes = ParticleFilterTests.nodes(floors: 2)
        let connections =
            stairs
            ? [FloorConnection(id: "stairs", levels: [0, 1], shape: .circle(center: Point2D(x: 1, y: 1), radius: 1.5))]
            : []
        let plan = FloorPlan(floors: Self.floors(2, walls: []), connections: connections)
        var engine = try MethodCatalog.engine(method: "particle-filter", nodes: nodes, floorPlan: plan)
        let filter = try #require(engine.method as? ParticleFilter)
        var random = SplitMix64(seed: 5)
        var belief: ParticleFilter.Belief?
        var floors: [Int?] = []
        var share = 0.0
        for second in 0..<40 {
            let time = Double(second)
            var batch = ParticleFilterTests.sightings(
                at: time, device: "d", position: Point2D(x: 10, y: 5), floor: 0, nodes: nodes, random: &random)
            if second == 20 {
                batch += [0.2, 0.7].map { Sighting(time: time + $0, device: "d", node: "f1-7", rssi: -50) }
            }
            engine.ingest(batch.sorted { $0.time < $1.time })
            let readings = engine.readings(device: "d", at: time + 0.9)
            if var current = belief {
                filter.update(&current, readings: readings, at: time + 0.9)
                belief = current
            } else {
                belief = filter.start(device: "d", readings: readings, at: time + 0.9)
            }
            guard let current = belief else { continue }
            if second >= 5, case .success(let estimate) = filter.estimate(from: current) {
                floors.append(estimate.floor)
            }
            if (20..<25).contains(second) {
                share = max(share, Double(current.floor.filter { $0 == 1 }.count) / Double(current.count))
            }
        }
        return (floors, share)
    }

    @Test func noFloorChangeAwayFromTheStairsOnOneStrongReading() throws {
        let gated = try Self.strongReading(stairs: true)
        #expect(gated.floors.count == 35)
        #expect(gated.floors.allSatisfy { $0 == 0 }, "\(gated.floors)")
        let anywhere = try Self.strongReading(stairs: false)
        #expect(anywhere.floors.allSatisfy { $0 == 0 }, "\(anywhere.floors)")
        // Away from the stairs hardly a particle is upstairs to take the strong reading's weight.
        #expect(gated.share < 0.02, "share \(gated.share)")
        #expect(gated.share <= anywhere.share, "with stairs \(gated.share), anywhere \(anywhere.share)")
    }

    @Test func strongEvidenceStillChangesFloorWithoutStairsNearby() throws {
        // The venue's plan misses the staircase the device took: the floor still follows, more slowly.
        let nodes = ParticleFilterTests.nodes(floors: 2)
        let plan = FloorPlan(
            floors: Self.floors(2, walls: []),
            connections: [
                FloorConnection(id: "lift", levels: [0, 1], shape: .circle(center: Point2D(x: 0, y: 0), radius: 1))
            ])
        var engine = try MethodCatalog.engine(method: "particle-filter", nodes: nodes, floorPlan: plan)
        var random = SplitMix64(seed: 6)
        var floors: [Int?] = []
        for second in 0..<150 {
            let floor = second < 30 ? 0 : 1
            engine.ingest(
                ParticleFilterTests.sightings(
                    at: Double(second), device: "d", position: Point2D(x: 15, y: 5), floor: floor, nodes: nodes,
                    random: &random))
            if case .success(let fix) = engine.locate(device: "d", at: Double(second) + 0.9) {
                floors.append(fix.floor)
            }
        }
        #expect(floors.prefix(30).allSatisfy { $0 == 0 })
        #expect(floors.suffix(30).allSatisfy { $0 == 1 }, "\(floors)")
    }

    @Test func atTheStairsTheFloorFollowsQuickly() throws {
        let nodes = ParticleFilterTests.nodes(floors: 2)
        let plan = FloorPlan(
            floors: Self.floors(2, walls: []),
            connections: [
                FloorConnection(id: "stairs", levels: [0, 1], shape: .circle(center: Point2D(x: 10, y: 5), radius: 3))
            ])
        var engine = try MethodCatalog.engine(method: "particle-filter", nodes: nodes, floorPlan: plan)
        var random = SplitMix64(seed: 6)
        var floors: [Int?] = []
        for second in 0..<70 {
            let floor = second < 30 ? 0 : 1
            engine.ingest(
                ParticleFilterTests.sightings(
                    at: Double(second), device: "d", position: Point2D(x: 10, y: 5), floor: floor, nodes: nodes,
                    random: &random))
            if case .success(let fix) = engine.locate(device: "d", at: Double(second) + 0.9) {
                floors.append(fix.floor)
            }
        }
        #expect(floors.prefix(30).allSatisfy { $0 == 0 })
        #expect(floors.suffix(20).allSatisfy { $0 == 1 }, "\(floors)")
    }

    /// Inside a staircase particles change floor at the connections' rate, not the plan-less one: with no evidence
    /// for 10 s, a cloud on stairs covering the whole venue spreads to the other floor that much faster.
    @Test func insideAConnectionParticlesChangeFloorAtItsRate() throws {
        let nodes = ParticleFilterTests.nodes(floors: 2)
        let plan = FloorPlan(
            floors: Self.floors(2, walls: []),
            connections: [
                FloorConnection(
                    id: "stairs", levels: [0, 1], shape: .circle(center: Point2D(x: 10, y: 5), radius: 100))
            ])
        var engine = try MethodCatalog.engine(method: "particle-filter", nodes: nodes, floorPlan: plan)
        let filter = try #require(engine.method as? ParticleFilter)
        var random = SplitMix64(seed: 7)
        let start = Self.readings(
            &engine, position: Point2D(x: 10, y: 5), floor: 0, nodes: nodes, time: 0, random: &random)
        func shareUpstairs(connectionChangeRate: Double) throws -> Double {
            let configuration = ParticleFilter.Configuration(connectionChangeRate: connectionChangeRate)
            let method = ParticleFilter(posterior: filter.posterior, configuration: configuration, floorPlan: plan)
            var belief = try #require(method.start(device: "d", readings: start, at: 0.6))
            let before = belief.floor.filter { $0 == 1 }.count
            for second in 1...10 { method.update(&belief, readings: [], at: 0.6 + Double(second)) }
            return Double(belief.floor.filter { $0 == 1 }.count - before) / Double(belief.count)
        }
        let slow = try shareUpstairs(connectionChangeRate: 0.02)
        let fast = try shareUpstairs(connectionChangeRate: 0.5)
        // 10 s at 0.02/s moves about 18% of the particles once; at 0.5/s nearly all have drawn a change.
        #expect(slow > 0.05 && slow < 0.3, "at 0.02/s: \(slow)")
        #expect(fast > 0.35, "at 0.5/s: \(fast)")
    }
}
