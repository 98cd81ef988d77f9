import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorPositioning
import IndoorSession
import Testing

/// The cases the pipeline issue names, each through one ``LocationSession``.
@Suite("LocationSession: the pipeline's cases")
struct PipelineCasesTests {
    static let uuid = UUID(
        uuid: (0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0))
    static func beacon(_ minor: UInt16) -> BeaconID { BeaconID(uuid: uuid, major: 1, minor: minor) }

    /// Three nodes advertising as beacons 1/1, 1/2, 1/3; a zone "desk" at beacon a (check-in near).
    static let beaconVenue = Venue(
        id: "beacons", name: "Beacons",
        nodes: [
            Node(id: "a", beacon: beacon(1), position: Point3D(x: 0, y: 0, z: 0)),
            Node(id: "b", beacon: beacon(2), position: Point3D(x: 10, y: 0, z: 0)),
            Node(id: "c", beacon: beacon(3), position: Point3D(x: 0, y: 10, z: 0)),
        ],
        zones: [
            Zone(
                id: "desk", name: "Desk",
                beacons: [ZoneBeacon(node: "a", checkIn: .near), ZoneBeacon(node: "b", checkIn: .near)],
                exitDelay: 10)
        ])

    static func sighting(_ time: Double, _ minor: UInt16, _ rssi: Double, tx: Double? = nil) -> Sighting {
        Sighting(time: time, device: "p", source: .beacon(beacon(minor)), rssi: rssi, txPower: tx)
    }

    @Test func anAdvertisedPowerOutsideASignedByteIsIgnoredByPositioningMonitoringAndZonesAlike() throws {
        let configuration = SessionConfiguration(
            venue: Self.beaconVenue, fixInterval: 0, firstFixDelay: 0, monitoring: [BeaconCondition(uuid: Self.uuid)])
        var corrupt = try LocationSession(configuration)
        var plain = try LocationSession(configuration)
        let corruptEvents = corrupt.ingest([
            Self.sighting(0, 2, -70), Self.sighting(0.1, 3, -70), Self.sighting(0.2, 1, -80, tx: -1e308),
        ])
        let plainEvents = plain.ingest([
            Self.sighting(0, 2, -70), Self.sighting(0.1, 3, -70), Self.sighting(0.2, 1, -80),
        ])
        // Positioning: the same fix as without the advertised power (−59 dBm at 1 m, the typical value).
        #expect(corruptEvents == plainEvents)
        // Monitoring ranged beacon a at 10^((−59 + 80) / 20) = 11.22 m, far: not 0 m, immediate.
        let ranged = corruptEvents.compactMap { event -> RangedBeacon? in
            guard case .monitor(.didFindBeacon(let found), _) = event, found.beacon == Self.beacon(1) else {
                return nil
            }
            return found.ranging
        }
        #expect(ranged.count == 1)
        #expect(abs((ranged.first?.distance ?? 0) - 11.22) < 0.01)
        #expect(ranged.first?.proximity == .far)
        // Zones: far is beyond the desk's check-in proximity, so nobody checks in.
        #expect(!corruptEvents.contains { if case .zone = $0 { true } else { false } })
        #expect(corrupt.statistics.fixes == 3)
    }

    @Test func aFaintSecondBeaconDoesNotHoldTheVisitOpen() throws {
        var session = try LocationSession(SessionConfiguration(venue: Self.beaconVenue))
        var sightings: [Sighting] = []
        for second in 0...80 {
            if second <= 20 { sightings.append(Self.sighting(Double(second), 1, -59)) }  // a: about 1 m, near
            sightings.append(Self.sighting(Double(second) + 0.5, 2, -86))  // b: about 22 m, far, all along
        }
        let zones = session.ingest(sightings).compactMap { event -> ZoneEvent? in
            guard case .zone(let zone) = event else { return nil }
            return zone
        }
        #expect(zones.map(\.kind) == [.checkIn, .checkOut])
        #expect(zones.first?.beacon == "a")
        #expect(zones.first?.proximity == .near)
        // a was last heard at 20 s: the visit ends 10 s later with a dwell of 20 s, though b is heard until 80.5 s.
        #expect(zones.last?.time == 30)
        #expect(zones.last?.dwell == 20)
        #expect(zones.last?.beacon == "a")
    }

    @Test func aFenceCheckInAndCheckOutNameTheFence() throws {
        var venue = tinyVenue
        venue.zones[0].fences[0].id = "desk-3"
        var named = try LocationSession(SessionConfiguration(venue: venue))
        var unnamed = try LocationSession(SessionConfiguration(venue: tinyVenue))
        func fences(_ events: [SessionEvent]) -> [String?] {
            events.compactMap { event -> String?? in
                guard case .zone(let zone) = event else { return nil }
                return zone.fence
            }
        }
        #expect(fences(named.ingest(tinyWalk)) == ["desk-3", "desk-3"])
        #expect(fences(unnamed.ingest(tinyWalk)) == ["0", "0"])
    }

    @Test func peerDataArriving40sBeforeItsBeaconSurvivesAndALeaveEndsThePeer() throws {
        let peerUUID = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
        var session = try LocationSession(
            SessionConfiguration(venue: tinyVenue, peers: SessionConfiguration.PeerConfiguration(uuid: peerUUID)))
        let key = PeerKey(major: 172, minor: 8376)
        _ = session.updatePeer(key, displayName: "Ana", at: 0)
        _ = session.advance(to: 39)
        let heard = session.ingest(
            Sighting(
                time: 40, device: "me", source: .beacon(BeaconID(uuid: peerUUID, major: 172, minor: 8376)), rssi: -65))
        #expect(session.knownPeers.map(\.displayName) == ["Ana"])
        let distance = try #require(session.knownPeers.first?.distance)
        #expect(abs(distance - 2) < 0.01)  // −65 dBm with −59 dBm at 1 m, exponent 2
        #expect(heard.contains { if case .peer(.updated, 40) = $0 { true } else { false } })
        // Silent for the 30 s timeout: the distance becomes unknown, the identity stays.
        let silent = session.advance(to: 75)
        #expect(silent.contains { if case .peer(.lostSignal, _) = $0 { true } else { false } })
        #expect(session.knownPeers.first?.displayName == "Ana")
        #expect(session.knownPeers.first?.distance == nil)
        // An explicit leave ends the peer.
        let left = session.peerLeft(key, at: 80)
        #expect(left.contains { if case .peer(.left, 80) = $0 { true } else { false } })
        #expect(session.knownPeers.isEmpty)
    }

    @Test func aVenueWithARepeatedZoneIDIsRefusedWhereItIsRead() {
        let json = Data(#"{"id": "v", "zones": [{"id": "a"}, {"id": "b"}, {"id": "a"}]}"#.utf8)
        #expect {
            try Venue.decodeJSON(json, file: "v.json")
        } throws: { error in
            String(describing: error).contains("zones[2].id: zone id 'a' is already used by zones[0]")
        }
    }
}
