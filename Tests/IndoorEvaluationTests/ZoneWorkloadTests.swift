import Foundation
import IndoorEvaluation
import IndoorModel
import Testing

@testable import IndoorGeofencing

/// Pins the event stream of a seeded crowd, so that changes to the engine's algorithms (timer queue, spatial
/// index) keep every event, its fields and its order. The numbers were recorded with the first, plain
/// implementation (every zone tested for every fix, every timer re-checked on every update).
@Suite("Zone engine: seeded crowd")
struct ZoneWorkloadTests {
    /// Drives the engine as a server would: the fixes of each second, then `advance` to the next second.
    static func run(_ workload: ZoneWorkload) -> (digest: ZoneWorkload.Digest, events: [ZoneEvent], engine: ZoneEngine)
    {
        var engine = ZoneEngine(zones: workload.zones)
        var digest = ZoneWorkload.Digest()
        var all: [ZoneEvent] = []
        for (second, fixes) in workload.fixesBySecond().enumerated() {
            for fix in fixes { all += engine.update(with: fix) }
            all += engine.advance(to: Double(second + 1))
        }
        digest.add(all)
        return (digest, all, engine)
    }

    static func fnv1a(_ text: String) -> UInt64 {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return value
    }

    @Test func crowdOf200KeepsItsEventStream() throws {
        let workload = ZoneWorkload(devices: 200, zones: 30, seconds: 100, seed: 7)
        let (digest, events, engine) = Self.run(workload)
        let kinds = Dictionary(grouping: events, by: \.kind).mapValues(\.count)
        #expect(kinds[.checkIn] == 314)
        #expect(kinds[.checkOut] == 199)
        #expect(kinds[.dwell] == 14)
        #expect(events.filter { $0.trigger == .geoline && $0.kind == .checkIn }.count == 25)
        #expect(events.filter { $0.reason == .lost }.count == 3)
        // Every fence visit's events name a fence (the workload's fences have no id: index "0").
        #expect(events.filter { $0.trigger == .fence }.allSatisfy { $0.fence == "0" && $0.beacon == nil })
        #expect(engine.activity.visits.count == 265)
        // The activity log, in log order.
        let log = engine.activity.visits.map { visit in
            "\(visit.zone)|\(visit.device)|\(visit.trigger)|\(visit.checkIn)|\(visit.checkOut ?? -1)|\(visit.reason?.rawValue ?? "-")"
        }
        #expect(String(Self.fnv1a(log.joined(separator: "\n")), radix: 16) == "ae0d1dd0a93c3726")
        #expect(engine.openVisits.count == 49)
        // Every field of every event, in order.
        #expect(digest.count == 527)
        #expect(String(digest.value, radix: 16) == "b9f67cafaf3f92cf")
    }
}
