import Foundation
import IndoorModel
import Testing

@testable import IndoorGeofencing

/// Peer data that arrives late or with a broken time.
struct PeerDirectoryUnusualInputTests {
    let key = PeerKey(major: 172, minor: 8376)

    @Test("a late sighting keeps the newer distance and proximity, and never shortens the peer's life")
    func lateSighting() {
        var directory = PeerDirectory(timeout: 30)
        _ = directory.heard(key, distance: 1.2, proximity: .near, at: 20)
        let late = directory.heard(key, distance: 9, proximity: .far, at: 5)
        let expected = Peer(key: key, distance: 1.2, proximity: .near, lastHeard: 20, lastUpdate: 20)
        #expect(late == [.updated(expected)])
        #expect(directory.advance(to: 49.9).isEmpty)
        #expect(directory.advance(to: 50) == [.expired(expected)])
    }

    @Test("late session data only fills what is unknown: it never replaces a newer name")
    func lateSessionData() {
        var directory = PeerDirectory(timeout: 30)
        _ = directory.update(key, displayName: "Ana M.", at: 20)
        let picture = Data([0xFF, 0xD8])
        _ = directory.update(key, displayName: "Ana", picture: picture, at: 12)
        #expect(
            directory[key]
                == Peer(key: key, displayName: "Ana M.", picture: picture, isSessionMember: true, lastUpdate: 20))
        // Newer data replaces as usual.
        _ = directory.update(key, displayName: "Ana Maria", at: 21)
        #expect(directory[key]?.displayName == "Ana Maria")
    }

    @Test("data with a NaN or infinite time is ignored, so no peer is stuck with a time that never expires")
    func nonFiniteTime() {
        var directory = PeerDirectory(timeout: 30)
        #expect(directory.heard(key, distance: 2, proximity: .near, at: .nan).isEmpty)
        #expect(directory.update(key, displayName: "Ana", at: .infinity).isEmpty)
        #expect(directory.peers.isEmpty)
        _ = directory.heard(key, distance: 2, proximity: .near, at: 10)
        _ = directory.heard(key, distance: 2, proximity: .near, at: .nan)
        #expect(directory.left(key, at: .nan).isEmpty)
        #expect(directory.advance(to: .infinity).isEmpty)
        #expect(
            directory.advance(to: 40)
                == [.expired(Peer(key: key, distance: 2, proximity: .near, lastHeard: 10, lastUpdate: 10))])
    }

    @Test("a sighting older than the timeout behind the latest time is out of date: ignored")
    func staleSighting() {
        var directory = PeerDirectory(timeout: 30)
        _ = directory.update(key, displayName: "Ana", at: 100)
        #expect(directory.heard(key, distance: 2, proximity: .near, at: 60).isEmpty)
        #expect(directory[key]?.distance == nil)
        // An unknown distance is nil, with its proximity class.
        _ = directory.heard(key, distance: .infinity, proximity: .unknown, at: 101)
        #expect(directory[key]?.distance == nil)
        #expect(directory[key]?.proximity == .unknown)
    }
}
