import Foundation
import IndoorEvaluation
import IndoorGeofencing
import IndoorModel
import Testing

@Suite("Zone occupancy")
struct ZoneOccupancyTests {
    /// Who is in each zone by the engine's open visits, counted by `occupancy`'s rule for persons.
    static func expected(_ engine: ZoneEngine, persons: [String: String]) -> [String: Int] {
        var members: [String: Set<String>] = [:]
        for visit in engine.openVisits {
            members[visit.zone, default: []].insert(persons[visit.device] ?? visit.device)
        }
        return members.mapValues(\.count)
    }

    @Test(
        "a seeded crowd: occupancy equals the open visits after every second, with and without persons",
        arguments: [false, true])
    func crowd(withPersons: Bool) {
        let workload = ZoneWorkload(devices: 120, zones: 20, seconds: 240, seed: 11)
        // Persons of two or three devices each, for half the crowd; the rest count as themselves.
        var persons: [String: String] = [:]
        if withPersons {
            for index in 0..<60 { persons["device-\(index)"] = "person-\(index / 3)" }
        }
        var engine = ZoneEngine(zones: workload.zones)
        var occupancy = ZoneOccupancy(persons: persons)
        var changes: [ZoneOccupancy.Change] = []
        var mismatches = 0
        for (second, fixes) in workload.fixesBySecond().enumerated() {
            var events: [ZoneEvent] = []
            for fix in fixes { events += engine.update(with: fix) }
            events += engine.advance(to: Double(second + 1))
            for event in events { changes += occupancy.apply(event).map { [$0] } ?? [] }
            if occupancy.counts != Self.expected(engine, persons: persons) { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(!changes.isEmpty)
        // Each change follows on from the zone's previous one, and its kind says how.
        var last: [String: Int] = [:]
        for change in changes {
            #expect(change.previousCount == last[change.zone, default: 0])
            #expect(change.count != change.previousCount)
            let kind: ZoneOccupancy.Change.Kind =
                change.previousCount == 0 ? .occupied : change.count == 0 ? .empty : .changed
            #expect(change.kind == kind)
            last[change.zone] = change.count
        }
        // Started again from the open visits (a restart), occupancy is the same.
        #expect(ZoneOccupancy(openVisits: engine.openVisits, persons: persons).counts == occupancy.counts)
    }

    @Test("a seeded crowd of persons: each checks in and out of a zone in turn, out with their dwell")
    func crowdOfPersons() {
        let workload = ZoneWorkload(devices: 90, zones: 12, seconds: 240, seed: 5)
        var persons: [String: String] = [:]
        for index in 0..<90 { persons["device-\(index)"] = "person-\(index / 3)" }
        var engine = ZoneEngine(zones: workload.zones)
        var occupancy = ZoneOccupancy(persons: persons)
        var inside: [String: Double] = [:]  // "person zone" -> since
        var presences = 0
        var mismatches = 0
        for (second, fixes) in workload.fixesBySecond().enumerated() {
            var events: [ZoneEvent] = []
            for fix in fixes { events += engine.update(with: fix) }
            events += engine.advance(to: Double(second + 1))
            for event in events {
                guard let presence = occupancy.follow(event).person else { continue }
                presences += 1
                let key = "\(presence.person) \(presence.zone)"
                switch presence.kind {
                case .checkIn:
                    if inside[key] != nil { mismatches += 1 }
                    inside[key] = presence.time
                    #expect(presence.dwell == nil)
                case .checkOut:
                    if inside[key] != presence.since { mismatches += 1 }
                    inside[key] = nil
                    #expect(presence.dwell == presence.time - presence.since)
                }
            }
            // A person is in a zone exactly while one of their devices has a visit open in it.
            var open = Set<String>()
            for visit in engine.openVisits { open.insert("\(persons[visit.device] ?? visit.device) \(visit.zone)") }
            if open != Set(inside.keys) { mismatches += 1 }
        }
        #expect(presences > 20)
        #expect(mismatches == 0)
    }

    @Test("regrouped by new persons: the same devices in the same zones, counted by the new persons")
    func regrouped() {
        var occupancy = ZoneOccupancy()
        _ = occupancy.apply(Self.event(.checkIn, "a-phone", at: 1))
        _ = occupancy.apply(Self.event(.checkIn, "a-watch", at: 3))
        #expect(occupancy.count(of: "lab") == 2)
        var grouped = occupancy.regrouped(persons: ["a-phone": "anna", "a-watch": "anna"])
        #expect(grouped.count(of: "lab") == 1 && grouped.members(of: "lab") == ["anna"])
        // Anna came in with her phone at t = 1: her check-out after her last device says so.
        #expect(grouped.follow(Self.event(.checkOut, "a-phone", at: 5)).person == nil)
        let out = grouped.follow(Self.event(.checkOut, "a-watch", at: 9))
        #expect(out.person?.kind == .checkOut && out.person?.since == 1 && out.person?.dwell == 8)
        #expect(out.change?.kind == .empty)
    }

    static func event(_ kind: ZoneEvent.Kind, _ device: String, at time: Double, zone: String = "lab") -> ZoneEvent {
        ZoneEvent(kind: kind, time: time, zone: zone, zoneName: zone, device: device, trigger: .fence)
    }

    @Test("a person is in from their first device's check-in to their last device's check-out")
    func person() {
        var occupancy = ZoneOccupancy(persons: ["anna-phone": "anna", "anna-watch": "anna"])
        #expect(occupancy.apply(Self.event(.checkIn, "anna-phone", at: 1))?.kind == .occupied)
        // Anna is in since t = 1; a device of no person makes no person's event.
        var other = ZoneOccupancy(persons: occupancy.persons)
        #expect(other.follow(Self.event(.checkIn, "anna-watch", at: 1)).person?.person == "anna")
        var nobody = ZoneOccupancy()
        #expect(nobody.follow(Self.event(.checkIn, "tag-7", at: 1)).person == nil)
        #expect(occupancy.apply(Self.event(.checkIn, "anna-watch", at: 2)) == nil)
        #expect(occupancy.apply(Self.event(.checkIn, "tag-7", at: 3))?.count == 2)
        #expect(occupancy.members(of: "lab") == ["anna", "tag-7"])
        #expect(occupancy.zones(of: "anna") == ["lab"] && occupancy.zones(of: "bo").isEmpty)
        #expect(occupancy.apply(Self.event(.checkOut, "anna-phone", at: 4)) == nil)
        #expect(occupancy.apply(Self.event(.dwell, "anna-watch", at: 5)) == nil)
        let out = occupancy.apply(Self.event(.checkOut, "anna-watch", at: 6))
        #expect(out == ZoneOccupancy.Change(zone: "lab", time: 6, kind: .changed, count: 1, previousCount: 2))
        // An erased device leaves its zones at once.
        #expect(
            occupancy.remove(device: "tag-7", at: 7) == [
                ZoneOccupancy.Change(zone: "lab", time: 7, kind: .empty, count: 0, previousCount: 1)
            ])
        #expect(occupancy.counts.isEmpty)
        // A check-out of a visit never followed changes nothing.
        #expect(occupancy.apply(Self.event(.checkOut, "ghost", at: 8)) == nil)
    }

    @Test("a check-in that opens no visit (a geoline) does not count")
    func geoline() {
        var occupancy = ZoneOccupancy()
        var crossing = Self.event(.checkIn, "d", at: 1)
        crossing.willCheckOut = false
        #expect(occupancy.apply(crossing) == nil)
        #expect(occupancy.count(of: "lab") == 0)
    }
}
