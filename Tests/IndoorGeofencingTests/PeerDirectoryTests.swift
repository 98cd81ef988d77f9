import Foundation
import IndoorModel
import Testing

@testable import IndoorGeofencing

@Suite("Peer directory")
struct PeerDirectoryTests {
    let key = PeerKey(major: 172, minor: 8376)
    let picture = Data([0xFF, 0xD8, 0xFF, 0xE0])

    @Test("a sighting first, then session data: the peer is created, then filled in")
    func sightingThenSession() {
        var directory = PeerDirectory(timeout: 30)
        let first = directory.heard(key, distance: 2.5, proximity: .near, at: 10)
        #expect(first == [.appeared(Peer(key: key, distance: 2.5, proximity: .near, lastHeard: 10, lastUpdate: 10))])
        let second = directory.update(key, displayName: "Ana", picture: picture, at: 12)
        let merged = Peer(
            key: key, displayName: "Ana", picture: picture, distance: 2.5, proximity: .near, lastHeard: 10,
            lastUpdate: 12)
        #expect(second == [.updated(merged)])
        #expect(directory.peers == [merged])
    }

    @Test("session data first, then a sighting: the same peer results")
    func sessionThenSighting() {
        var directory = PeerDirectory(timeout: 30)
        let first = directory.update(key, displayName: "Ana", picture: picture, at: 10)
        #expect(first == [.appeared(Peer(key: key, displayName: "Ana", picture: picture, lastUpdate: 10))])
        _ = directory.heard(key, distance: 2.5, proximity: .near, at: 12)
        #expect(
            directory[key]
                == Peer(
                    key: key, displayName: "Ana", picture: picture, distance: 2.5, proximity: .near, lastHeard: 12,
                    lastUpdate: 12))
        // A later update without a picture keeps the picture.
        _ = directory.update(key, displayName: "Ana M.", at: 13)
        #expect(directory[key]?.picture == picture)
        #expect(directory[key]?.displayName == "Ana M.")
    }

    @Test("a peer neither heard nor updated for the timeout expires; one heard recently stays")
    func expiry() throws {
        var directory = PeerDirectory(timeout: 30)
        let other = try PeerKey(parsing: "172/9000")
        _ = directory.heard(key, distance: 1, proximity: .near, at: 0)
        _ = directory.update(other, displayName: "Bo", at: 0)
        _ = directory.update(key, picture: picture, at: 20)
        #expect(directory.advance(to: 29.9).isEmpty)
        let expired = directory.advance(to: 30)
        #expect(expired == [.expired(Peer(key: other, displayName: "Bo", lastUpdate: 0))])
        #expect(directory.peers.map(\.key) == [key])
        #expect(directory.advance(to: 50).count == 1)
        #expect(directory.peers.isEmpty)
    }

    @Test("ranging of a phone's beacon identity lands under its major/minor")
    func fromRanging() {
        var directory = PeerDirectory()
        let ranging = RangedBeacon(
            time: 5, device: "me", source: .beacon(BeaconID(uuid: monitorUUID, major: 172, minor: 8376)), rssi: -70,
            distance: 3.2, proximity: .far)
        _ = directory.heard(ranging)
        #expect(directory[key]?.distance == 3.2)
        #expect(directory[key]?.proximity == .far)
    }

    @Test("keys parse major/minor and reject anything else", arguments: ["172", "172/8376/1", "x/1", "1/70000", ""])
    func badKeys(text: String) {
        #expect(throws: FormatError.self) { try PeerKey(parsing: text) }
    }
}
