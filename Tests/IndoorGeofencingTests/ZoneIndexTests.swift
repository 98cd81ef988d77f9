import Foundation
import IndoorEvaluation
import IndoorModel
import Testing

@testable import IndoorGeofencing

@Suite("Zone engine: timer queue and spatial index")
struct ZoneIndexTests {
    @Test("the due queue pops in (due, key) order, whatever the insertion order, and after a rebuild")
    func queueOrder() {
        var random = SplitMix64(seed: 3)
        var queue = ZoneDueQueue<Int>()
        var inserted: [(Double, Int)] = []
        for key in 0..<500 {
            // Few distinct times, so that ties are decided by the key.
            let due = Double(random.index(below: 20)) - 5
            queue.insert(due: due, key: (key * 7919) % 500)
            inserted.append((due, (key * 7919) % 500))
        }
        let expected = inserted.sorted { $0 < $1 }
        var popped: [(Double, Int)] = []
        while let entry = queue.removeFirst() { popped.append((entry.due, entry.key)) }
        #expect(popped.map(\.0) == expected.map(\.0))
        #expect(popped.map(\.1) == expected.map(\.1))

        queue.rebuild(inserted.map { ZoneDueQueue<Int>.Entry(due: $0.0, key: $0.1) })
        #expect(queue.count == 500)
        #expect(queue.first?.due == expected[0].0)
        #expect(queue.first?.key == expected[0].1)
        popped = []
        while let entry = queue.removeFirst() { popped.append((entry.due, entry.key)) }
        #expect(popped.map(\.1) == expected.map(\.1))
    }

    @Test("the grid answers every zone whose fence can contain a point (brute force on random points)")
    func gridIsASuperset() {
        let workload = ZoneWorkload(devices: 0, zones: 40, seconds: 0, seed: 5)
        let boxes = workload.zones.enumerated().flatMap { index, zone in
            zone.fences.map { fence -> (zone: Int, box: ZoneGrid.Box) in
                switch fence.shape {
                case .circle(let center, let radius):
                    return (
                        index,
                        ZoneGrid.Box(around: [
                            Point2D(x: center.x - radius, y: center.y - radius),
                            Point2D(x: center.x + radius, y: center.y + radius),
                        ])
                    )
                case .polygon(let polygon):
                    return (index, ZoneGrid.Box(around: polygon.vertices))
                }
            }
        }
        let grid = ZoneGrid(boxes: boxes)
        var random = SplitMix64(seed: 9)
        var hits = 0
        for _ in 0..<3000 {
            let point = Point2D(
                x: random.uniform(-5...(workload.width + 5)), y: random.uniform(-5...(workload.height + 5)))
            let found = grid.zones(containing: point)
            let inside = workload.zones.indices.filter { index in
                workload.zones[index].fences.contains { $0.signedDistance(to: point) <= 0 }
            }
            hits += inside.count
            #expect(Set(inside).isSubset(of: found))
            #expect(found == found.sorted())
            #expect(found.count <= 2)
        }
        #expect(hits > 300)
    }

    @Test("the grid finds the geolines a move meets, short steps and long jumps alike")
    func gridMoves() {
        let gate = ZoneGrid.Box(around: [Point2D(x: 10, y: 0), Point2D(x: 10, y: 4)])
        let far = ZoneGrid.Box(around: [Point2D(x: 500, y: 500), Point2D(x: 504, y: 500)])
        let grid = ZoneGrid(boxes: [(zone: 3, box: gate), (zone: 1, box: far)])
        #expect(grid.zones(meetingMoveFrom: Point2D(x: 9, y: 2), to: Point2D(x: 11, y: 2)) == [3])
        #expect(grid.zones(meetingMoveFrom: Point2D(x: 0, y: 2), to: Point2D(x: 8, y: 2)).isEmpty)
        #expect(grid.zones(meetingMoveFrom: Point2D(x: 0, y: 2), to: Point2D(x: 600, y: 600)) == [1, 3])
        // Coordinates too large for grid cells are handled without trapping.
        #expect(grid.zones(containing: Point2D(x: 1e300, y: -1e300)).isEmpty)
        #expect(grid.zones(meetingMoveFrom: Point2D(x: -1e300, y: 2), to: Point2D(x: 1e300, y: 2)) == [3])
    }

    @Test("with the lost rule off, a device inside gets its dwell event from advance alone, on time")
    func dwellFromAdvanceAlone() {
        var zone = circleZone(dwell: 20)
        zone.lostTimeout = nil
        var engine = ZoneEngine(zones: [zone])
        #expect(summary(engine.run([fix(0, x: 1)])) == ["checkIn@0"])
        #expect(engine.advance(to: 19.5).isEmpty)
        #expect(summary(engine.advance(to: 25)) == ["dwell@20"])
        #expect(engine.advance(to: 1000).isEmpty)
        #expect(engine.openVisits.count == 1)
    }

    @Test("a zone beacon heard past the dwell threshold fires the dwell in that update; many devices stay independent")
    func beaconDwellAndManyDevices() {
        let desk = Zone(
            id: "desk", name: "Desk", beacons: [ZoneBeacon(node: "b1", checkIn: .near)], exitDelay: 15,
            dwellThreshold: 10)
        var engine = ZoneEngine(zones: [desk, circleZone()])
        var events: [ZoneEvent] = []
        for device in ["c", "a", "b"] {
            events += engine.update(with: ranging(0, node: "b1", .near, device: device))
        }
        events += engine.update(with: ranging(12, node: "b1", .far, device: "b"))
        #expect(summary(events) == ["checkIn@0", "checkIn@0", "checkIn@0", "dwell@10"])
        #expect(events.last?.device == "b")
        // a and c time out at 15, b at 27: same-time events come in device order.
        let out = engine.advance(to: 30)
        #expect(summary(out) == ["checkOut@15", "checkOut@15", "checkOut@27"])
        #expect(out.map(\.device) == ["a", "c", "b"])
        #expect(out.map(\.dwell) == [0, 0, 12])
    }
}
