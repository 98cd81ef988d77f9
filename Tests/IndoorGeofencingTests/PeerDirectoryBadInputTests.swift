import Foundation
import IndoorModel
import Testing

@testable import IndoorGeofencing

/// Peer data that arrives late or with a broken time.
struct PeerDirectoryBadInputTests {
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

    @Test("data with a NaN or infinite time is ignored, so no peer is stuck with a time that never expires")
    func nonFiniteTime() {
        var directory = PeerDirectory(timeout: 30)
        #expect(directory.heard(key, distance: 2, proximity: .near, at: .nan).isEmpty)
        #expect(directory.update(key, displayName: "Ana", at: .infinity).isEmpty)
        #expect(directory.peers.isEmpty)
        _ = directory.update(key, displayName: "Ana", at: 10)
        _ = directory.heard(key, distance: 2, proximity: .near, at: .nan)
        #expect(directory.advance(to: 40) == [.expired(Peer(key: key, displayName: "Ana", lastUpdate: 10))])
    }
}
