import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorSession
import Testing

/// `LocationSession.erase(device:)` (a person's data erased on request, issue 50): nothing of the device is left in
/// any part of the session, no event is made (its open visit is dropped, not checked out), the other devices go on,
/// and the device heard again is a new device.
@Suite("LocationSession: a device's data erased")
struct DeviceErasureTests {
    @Test("erased: no part holds it, no event, the others untouched, heard again it enters anew")
    func erasedDeviceLeavesNothing() throws {
        var session = try LocationSession(DeviceChurnTests.configuration())
        var events: [SessionEvent] = []
        let both =
            DeviceChurnTests.sightings(devices: 1, spacing: 0, prefix: "anna")
            + DeviceChurnTests.sightings(devices: 1, spacing: 0, prefix: "bob")
        for sighting in both.sorted(by: { ($0.time, $0.device) < ($1.time, $1.device) }) {
            events += session.ingest(sighting)
        }
        #expect(session.openVisits.map(\.device).sorted() == ["anna0", "bob0"])
        let heldBefore = session.heldDevicesByPart

        let erased = session.erase(device: "anna0")
        #expect(erased)
        #expect(session.room(of: "anna0") == nil)
        #expect(session.openVisits.map(\.device) == ["bob0"])
        #expect(!session.activity.visits.contains { $0.device == "anna0" })
        #expect(session.heldDevices == 1)
        for (part, count) in session.heldDevicesByPart where (heldBefore[part] ?? 0) > 0 {
            #expect(count == (heldBefore[part] ?? 0) - 1, "\(part)")
        }
        // No check-out was made for the erased device, now or later; the other one goes on.
        var after: [SessionEvent] = []
        for second in stride(from: 6.0, through: 200, by: 1) { after += session.advance(to: second) }
        let zones = after.compactMap { event -> ZoneEvent? in if case .zone(let zone) = event { zone } else { nil } }
        #expect(!zones.contains { $0.device == "anna0" })
        #expect(zones.contains { $0.device == "bob0" && $0.kind == .checkOut })
        #expect(!session.drainForgottenDevices().contains("anna0"))
        let erasedAgain = session.erase(device: "anna0")
        #expect(!erasedAgain)

        // Heard again: a new device, checked in anew.
        var again: [SessionEvent] = []
        for sighting in DeviceChurnTests.sightings(devices: 1, spacing: 0, prefix: "anna") {
            again += session.ingest(
                Sighting(
                    time: sighting.time + 300, device: sighting.device, source: sighting.source, rssi: sighting.rssi))
        }
        #expect(
            again.contains {
                if case .zone(let zone) = $0 { zone.device == "anna0" && zone.kind == .checkIn } else { false }
            })
    }
}
