import IndoorModel
import Testing

@testable import IndoorServer

/// A batch through its venue's session before its commit: what the venue takes and refuses, and what moves on.
@Suite struct PreparedBatchTests {
    @Test func eachSightingTheVenueCannotTakeIsRefusedWithWhyAndTheRestGoThroughTheSession() throws {
        let runtime = try VenueRuntime(venue: try VenueRegistryTests.venue("tiny"), learnsSurvey: false)
        let long = String(repeating: "d", count: VenueHub.maximumIDLength + 1)
        let sightings = [
            Sighting(time: 10, device: "p", node: "n2", rssi: -59),
            Sighting(time: 10.2, device: "p", node: "nx", rssi: -60),
            Sighting(time: 10.4, device: long, node: "n2", rssi: -60),
            Sighting(time: 10.6, device: "p", node: "n2", rssi: -60),
            // Far behind the venue's present (the window goes back an hour of data time).
            Sighting(time: -5000, device: "q", node: "n1", rssi: -60),
        ]
        let batch = try #require(PreparedBatch(sightings, runtime: runtime, window: SightingTimeWindow(), now: 500))
        #expect(batch.taken.map(\.time) == [10, 10.6])
        #expect(batch.refused.map(\.index) == [1, 2, 4])
        #expect(batch.refused.map(\.field) == ["node", "device", "t"])
        #expect(batch.refused[0].message.hasPrefix("node 'nx' is not a node of venue 'tiny'"))
        // The session located "p" beside n2, and holds a room answer for it.
        #expect(batch.events.contains { if case .fix(let fix) = $0 { fix.device == "p" } else { false } })
        #expect(batch.rooms["p"] != nil)
        #expect(batch.links.used == 0 && batch.links.ignored == 0)
        // The venue's present moved on.
        #expect(runtime.locked { $0.lastDataTime == 10.6 && $0.lastArrival == 500 && $0.timeBase == .recording })
        #expect(runtime.deviceCount == 1)
    }

    @Test func aBatchOfNothingTakenLeavesTheVenueAsItWas() throws {
        let runtime = try VenueRuntime(venue: try VenueRegistryTests.venue("tiny"), learnsSurvey: false)
        let batch = try #require(
            PreparedBatch(
                [Sighting(time: 1, device: "p", node: "nx", rssi: -60)], runtime: runtime,
                window: SightingTimeWindow(), now: 500))
        #expect(batch.taken.isEmpty && batch.events.isEmpty && batch.rooms.isEmpty)
        #expect(batch.refused.count == 1)
        #expect(runtime.locked { $0.lastDataTime == nil && $0.timeBase == nil })
    }

    @Test func aRetiredRuntimeTakesNothing() throws {
        let runtime = try VenueRuntime(venue: try VenueRegistryTests.venue("tiny"), learnsSurvey: false)
        runtime.locked { $0.retired = true }
        let batch = PreparedBatch(
            [Sighting(time: 1, device: "p", node: "n1", rssi: -60)], runtime: runtime, window: SightingTimeWindow(),
            now: 500)
        #expect(batch == nil)
        #expect(runtime.deviceCount == 0)
    }
}
