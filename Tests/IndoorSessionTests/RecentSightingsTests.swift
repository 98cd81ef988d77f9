import IndoorModel
import IndoorSession
import Testing

@Suite struct RecentSightingsTests {
    static func sighting(_ time: Double, _ device: String = "p") -> Sighting {
        Sighting(time: time, device: device, node: "n", rssi: -60)
    }

    @Test func keepsTheWindowBeforeTheLatestInTheOrderTheyCame() {
        var recent = RecentSightings(window: 10)
        recent.append(contentsOf: (0..<4000).map { Self.sighting(Double($0) * 0.25) })
        // Late by a little, as batches from several gateways come; a non-finite time is left out.
        recent.append(Self.sighting(995, "late"))
        recent.append(Self.sighting(.nan))
        let kept = recent.sightings
        // The latest is 999.75 s: everything from 989.75 s on (41 sightings), and the late one after them.
        #expect(kept.count == 42)
        #expect(kept.first?.time == 989.75)
        #expect(kept.last?.device == "late")
        #expect(kept.allSatisfy { $0.time.isFinite })
    }

    @Test func keepsAtMostItsCapacityTheNewest() {
        var recent = RecentSightings(window: 1000, capacity: 100)
        for time in 0..<10_000 { recent.append(Self.sighting(Double(time) * 0.001)) }
        let kept = recent.sightings
        #expect(kept.count == 100)
        #expect(kept.first?.time == 9.9)
        #expect(kept.last?.time == 9.999)
    }
}
