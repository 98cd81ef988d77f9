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
            key: key, displayName: "Ana", picture: picture, isSessionMember: true, distance: 2.5, proximity: .near,
            lastHeard: 10, lastUpdate: 12)
        #expect(second == [.updated(merged)])
        #expect(directory.peers == [merged])
    }

    @Test("session data first, then a sighting: the same peer results")
    func sessionThenSighting() {
        var directory = PeerDirectory(timeout: 30)
        let first = directory.update(key, displayName: "Ana", picture: picture, at: 10)
        #expect(
            first == [
                .appeared(Peer(key: key, displayName: "Ana", picture: picture, isSessionMember: true, lastUpdate: 10))
            ])
        _ = directory.heard(key, distance: 2.5, proximity: .near, at: 12)
        #expect(
            directory[key]
                == Peer(
                    key: key, displayName: "Ana", picture: picture, isSessionMember: true, distance: 2.5,
                    proximity: .near, lastHeard: 12, lastUpdate: 12))
        // A later update without a picture keeps the picture.
        _ = directory.update(key, displayName: "Ana M.", at: 13)
        #expect(directory[key]?.picture == picture)
        #expect(directory[key]?.displayName == "Ana M.")
    }

    @Test("a peer only heard expires after the timeout of silence; a session member does not")
    func expiry() throws {
        var directory = PeerDirectory(timeout: 30)
        let other = try PeerKey(parsing: "172/9000")
        _ = directory.heard(key, distance: 1, proximity: .near, at: 0)
        _ = directory.update(other, displayName: "Bo", at: 0)
        _ = directory.heard(key, distance: 1.5, proximity: .near, at: 20)
        #expect(directory.advance(to: 49.9).isEmpty)
        let expired = directory.advance(to: 50)
        #expect(expired == [.expired(Peer(key: key, distance: 1.5, proximity: .near, lastHeard: 20, lastUpdate: 20))])
        #expect(directory.peers.map(\.key) == [other])
        #expect(directory.advance(to: 10_000).isEmpty)
        #expect(directory[other]?.displayName == "Bo")
    }

    @Test("session data 40 s before the beacon is first heard survives until it is heard")
    func sessionDataBeforeBeacon() {
        var directory = PeerDirectory(timeout: 30)
        let joined = Peer(key: key, displayName: "Ana", picture: picture, isSessionMember: true, lastUpdate: 0)
        #expect(directory.update(key, displayName: "Ana", picture: picture, at: 0) == [.appeared(joined)])
        #expect(directory.advance(to: 35).isEmpty)
        #expect(directory[key] == joined)
        let heard = directory.heard(key, distance: 2.5, proximity: .near, at: 40)
        let merged = Peer(
            key: key, displayName: "Ana", picture: picture, isSessionMember: true, distance: 2.5, proximity: .near,
            lastHeard: 40, lastUpdate: 40)
        #expect(heard == [.updated(merged)])
    }

    @Test("a silent beacon makes the distance unknown; the identity stays, and a new sighting brings a distance")
    func silentBeaconKeepsIdentity() {
        var directory = PeerDirectory(timeout: 30)
        _ = directory.update(key, displayName: "Ana", at: 0)
        _ = directory.heard(key, distance: 2, proximity: .near, at: 5)
        #expect(directory.advance(to: 34.9).isEmpty)
        let lost = Peer(key: key, displayName: "Ana", isSessionMember: true, lastHeard: 5, lastUpdate: 5)
        #expect(directory.advance(to: 35) == [.lostSignal(lost)])
        // Said once; the peer stays with its identity.
        #expect(directory.advance(to: 500).isEmpty)
        #expect(directory[key] == lost)
        let back = directory.heard(key, distance: 4, proximity: .far, at: 501)
        #expect(
            back == [
                .updated(
                    Peer(
                        key: key, displayName: "Ana", isSessionMember: true, distance: 4, proximity: .far,
                        lastHeard: 501, lastUpdate: 501))
            ])
    }

    @Test("a peer that leaves the session ends with an event; a late leave or late data change nothing")
    func leaving() {
        var directory = PeerDirectory(timeout: 30)
        _ = directory.update(key, displayName: "Ana", at: 10)
        _ = directory.heard(key, distance: 2, proximity: .near, at: 12)
        let left = directory.left(key, at: 20)
        #expect(
            left == [
                .left(
                    Peer(
                        key: key, displayName: "Ana", isSessionMember: true, distance: 2, proximity: .near,
                        lastHeard: 12, lastUpdate: 12))
            ])
        #expect(directory.peers.isEmpty)
        // Session data older than the leave is late: ignored.
        #expect(directory.update(key, displayName: "Ana", at: 15).isEmpty)
        #expect(directory.peers.isEmpty)
        // Joining again later; a leave older than that is late.
        _ = directory.update(key, displayName: "Ana", at: 30)
        #expect(directory.left(key, at: 25).isEmpty)
        #expect(directory[key]?.displayName == "Ana")
        // Leaving an unknown peer says nothing.
        #expect(directory.left(PeerKey(major: 1, minor: 1), at: 31).isEmpty)
    }

    @Test("beyond the maximum, the least recently updated peer is evicted")
    func bounded() {
        var directory = PeerDirectory(timeout: 30, maximumPeers: 2)
        _ = directory.update(PeerKey(major: 1, minor: 1), displayName: "A", at: 0)
        _ = directory.update(PeerKey(major: 1, minor: 2), displayName: "B", at: 1)
        _ = directory.update(PeerKey(major: 1, minor: 1), displayName: "A", at: 2)
        let events = directory.heard(PeerKey(major: 1, minor: 3), distance: 1, proximity: .near, at: 3)
        #expect(
            events == [
                .appeared(
                    Peer(key: PeerKey(major: 1, minor: 3), distance: 1, proximity: .near, lastHeard: 3, lastUpdate: 3)),
                .expired(
                    Peer(key: PeerKey(major: 1, minor: 2), displayName: "B", isSessionMember: true, lastUpdate: 1)),
            ])
        #expect(directory.peers.map(\.key.minor) == [1, 3])
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
