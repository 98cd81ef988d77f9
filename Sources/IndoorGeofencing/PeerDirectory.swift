import Foundation
import IndoorModel

/// The phones nearby, keyed by `major/minor`, merging ranging and session data that arrive separately and
/// in any order.
///
/// The first piece of data (a sighting or session data) creates the peer; later pieces fill in the rest.
/// A peer that is neither heard nor updated for ``timeout`` seconds expires. Pure state machine: time comes
/// from the calls.
public struct PeerDirectory: Sendable {
    /// Seconds without a sighting or an update after which a peer expires. Default 30 s.
    public var timeout: Double
    private var byKey: [PeerKey: Peer] = [:]
    /// Per peer, the time of the newest session data, so that late session data never replaces newer.
    private var sessionTimes: [PeerKey: Double] = [:]

    /// An empty directory whose peers expire after `timeout` seconds without a sighting or an update.
    public init(timeout seconds: Double = 30) {
        self.timeout = seconds
    }

    /// The peers, sorted by key.
    public var peers: [Peer] { byKey.values.sorted { $0.key < $1.key } }

    /// The peer with `key`, if known.
    public subscript(key: PeerKey) -> Peer? { byKey[key] }

    /// A peer was heard as a beacon.
    ///
    /// A sighting older than the peer's last one (a late packet) keeps the peer alive but does not replace
    /// the newer distance and proximity. A sighting with a non-finite time is ignored.
    /// - Parameters:
    ///   - key: Its `major/minor`.
    ///   - distance: Estimated distance, metres.
    ///   - proximity: Proximity class.
    ///   - time: Seconds.
    public mutating func heard(
        _ key: PeerKey, distance meters: Double, proximity: Proximity, at time: Double
    ) -> [PeerEvent] {
        guard time.isFinite else { return [] }
        var events = advance(to: time)
        events.append(
            merge(key, at: time) { peer in
                if let lastHeard = peer.lastHeard, time < lastHeard { return }
                peer.distance = meters
                peer.proximity = proximity
                peer.lastHeard = time
            })
        return events
    }

    /// A peer was ranged (its beacon identity gives the key; node-id sources are ignored).
    public mutating func heard(_ ranging: RangedBeacon) -> [PeerEvent] {
        guard case .beacon(let beacon) = ranging.source else { return advance(to: ranging.time) }
        return heard(PeerKey(beacon), distance: ranging.distance, proximity: ranging.proximity, at: ranging.time)
    }

    /// Session data about a peer arrived; `nil` fields leave what is known unchanged. Session data older
    /// than the peer's newest (late data) only fills fields still unknown. Data with a non-finite time is
    /// ignored.
    public mutating func update(
        _ key: PeerKey, displayName: String? = nil, picture: Data? = nil, at time: Double
    ) -> [PeerEvent] {
        guard time.isFinite else { return [] }
        var events = advance(to: time)
        let isLate = sessionTimes[key].map { time < $0 } ?? false
        if !isLate { sessionTimes[key] = time }
        events.append(
            merge(key, at: time) { peer in
                if let displayName, !isLate || peer.displayName == nil { peer.displayName = displayName }
                if let picture, !isLate || peer.picture == nil { peer.picture = picture }
            })
        return events
    }

    /// Moves time on: peers silent and not updated for ``timeout`` seconds expire.
    public mutating func advance(to time: Double) -> [PeerEvent] {
        let expired = byKey.values.filter { time - $0.lastUpdate >= timeout }.sorted { $0.key < $1.key }
        for peer in expired {
            byKey[peer.key] = nil
            sessionTimes[peer.key] = nil
        }
        return expired.map { .expired($0) }
    }

    private mutating func merge(_ key: PeerKey, at time: Double, _ change: (inout Peer) -> Void) -> PeerEvent {
        if var peer = byKey[key] {
            change(&peer)
            peer.lastUpdate = max(peer.lastUpdate, time)
            byKey[key] = peer
            return .updated(peer)
        }
        var peer = Peer(key: key, lastUpdate: time)
        change(&peer)
        byKey[key] = peer
        return .appeared(peer)
    }
}
