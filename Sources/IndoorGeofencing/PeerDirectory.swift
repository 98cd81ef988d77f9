import Foundation
import IndoorModel

/// The phones nearby, keyed by `major/minor`, merging ranging and session data that arrive separately and
/// in any order.
///
/// A peer's identity (display name, picture) belongs to its **session membership**, its distance and proximity
/// to **sightings** of its beacon:
/// - The first piece of data (a sighting or session data) creates the peer (``PeerEvent/appeared(_:)``); later
///   pieces fill in the rest (``PeerEvent/updated(_:)``).
/// - Session data makes the peer a member. Membership does not expire by the sighting timeout: phones often
///   advertise only in the foreground, so a member's beacon may be heard long after its session data arrived,
///   or go silent for a while. A member ends only when it leaves (``left(_:at:)``, ``PeerEvent/left(_:)``) or
///   is evicted from a full directory.
/// - When a member's beacon has not been heard for ``timeout`` seconds, its distance and proximity become
///   unknown (`nil`, ``PeerEvent/lostSignal(_:)``); its identity stays. The next sighting brings a distance again.
/// - A peer that was only heard, never in the session, expires (``PeerEvent/expired(_:)``) once it has not been
///   heard for ``timeout`` seconds.
///
/// Memory is bounded: beyond ``maximumPeers`` peers, the least recently updated one is evicted
/// (``PeerEvent/expired(_:)``). Pure state machine: time comes from the calls, and every call first moves time
/// on (as ``advance(to:)``) to its own time.
public struct PeerDirectory: Sendable {
    /// Seconds without a sighting after which a member's distance becomes unknown and a peer that was only
    /// heard expires. Default 30 s.
    public var timeout: Double
    /// The most peers kept; beyond it the least recently updated peer (ties: the smallest key) is evicted.
    /// Default 1000.
    public var maximumPeers: Int
    private var byKey: [PeerKey: Peer] = [:]
    /// Per peer, the time of the newest session data, so that late session data never replaces newer.
    private var sessionTimes: [PeerKey: Double] = [:]
    /// Peers that left the session, with the time they left: session data older than that is late and ignored.
    /// Forgotten after ``timeout`` seconds, so the map stays small.
    private var leaves: [PeerKey: Double] = [:]
    /// The latest time seen, seconds.
    private var now = -Double.infinity

    /// An empty directory.
    /// - Parameters:
    ///   - seconds: The sighting timeout (see ``timeout``).
    ///   - maximumPeers: The most peers kept (at least 1).
    public init(timeout seconds: Double = 30, maximumPeers: Int = 1000) {
        self.timeout = seconds
        self.maximumPeers = max(1, maximumPeers)
    }

    /// The peers, sorted by key.
    public var peers: [Peer] { byKey.values.sorted { $0.key < $1.key } }

    /// The peer with `key`, if known.
    public subscript(key: PeerKey) -> Peer? { byKey[key] }

    /// A peer was heard as a beacon.
    ///
    /// A sighting older than the peer's last one (a late packet) keeps the peer alive but does not replace
    /// the newer distance and proximity. A sighting with a non-finite time, or older than the latest time seen
    /// minus ``timeout`` (its news is already out of date), is ignored. A non-finite distance is unknown (`nil`).
    /// - Parameters:
    ///   - key: Its `major/minor`.
    ///   - distance: Estimated distance, metres.
    ///   - proximity: Proximity class.
    ///   - time: Seconds.
    /// - Returns: The events due up to `time`, then the peer's.
    public mutating func heard(
        _ key: PeerKey, distance meters: Double, proximity: Proximity, at time: Double
    ) -> [PeerEvent] {
        guard time.isFinite else { return [] }
        var events = advance(to: time)
        guard time > now - timeout else { return events }
        events += merge(key, at: time) { peer in
            if let lastHeard = peer.lastHeard, time < lastHeard { return }
            peer.distance = meters.isFinite ? meters : nil
            peer.proximity = proximity
            peer.lastHeard = time
        }
        return events
    }

    /// A peer was ranged (its beacon identity gives the key; node-id sources are ignored).
    public mutating func heard(_ ranging: RangedBeacon) -> [PeerEvent] {
        guard case .beacon(let beacon) = ranging.source else { return advance(to: ranging.time) }
        return heard(PeerKey(beacon), distance: ranging.distance, proximity: ranging.proximity, at: ranging.time)
    }

    /// Session data about a peer arrived: the peer is a session member. `nil` fields leave what is known
    /// unchanged. Session data older than the peer's newest (late data) only fills fields still unknown; data
    /// older than the peer's leaving the session is ignored. Data with a non-finite time is ignored.
    /// - Parameters:
    ///   - key: Its `major/minor`.
    ///   - displayName: The name it shows.
    ///   - picture: Its picture, encoded bytes.
    ///   - time: Seconds.
    /// - Returns: The events due up to `time`, then the peer's.
    public mutating func update(
        _ key: PeerKey, displayName: String? = nil, picture: Data? = nil, at time: Double
    ) -> [PeerEvent] {
        guard time.isFinite else { return [] }
        var events = advance(to: time)
        if let leftAt = leaves[key], time <= leftAt { return events }
        let isLate = sessionTimes[key].map { time < $0 } ?? false
        if !isLate { sessionTimes[key] = time }
        events += merge(key, at: time) { peer in
            peer.isSessionMember = true
            if let displayName, !isLate || peer.displayName == nil { peer.displayName = displayName }
            if let picture, !isLate || peer.picture == nil { peer.picture = picture }
        }
        return events
    }

    /// The peer left the session: it is removed, with ``PeerEvent/left(_:)``.
    ///
    /// A leave older than the peer's newest session data (it rejoined since) is ignored; session data older
    /// than the leave, arriving later, is ignored too. If its beacon is still heard afterwards, the peer
    /// appears anew as heard only. A leave with a non-finite time is ignored.
    /// - Parameters:
    ///   - key: Its `major/minor`.
    ///   - time: Seconds.
    /// - Returns: The events due up to `time`, then ``PeerEvent/left(_:)`` when the peer was known.
    public mutating func left(_ key: PeerKey, at time: Double) -> [PeerEvent] {
        guard time.isFinite else { return [] }
        var events = advance(to: time)
        if let joined = sessionTimes[key], time < joined { return events }
        leaves[key] = max(leaves[key] ?? time, time)
        sessionTimes[key] = nil
        if let peer = byKey.removeValue(forKey: key) { events.append(.left(peer)) }
        return events
    }

    /// Moves time on to `time` seconds: members whose beacon has been silent for ``timeout`` seconds lose their
    /// distance (``PeerEvent/lostSignal(_:)``); peers only heard, silent that long, expire.
    /// - Returns: The events, sorted by key.
    public mutating func advance(to time: Double) -> [PeerEvent] {
        guard time.isFinite else { return [] }
        now = max(now, time)
        leaves = leaves.filter { now - $0.value < timeout }
        var events: [PeerEvent] = []
        for key in byKey.keys.sorted() {
            guard var peer = byKey[key] else { continue }
            if peer.isSessionMember {
                guard peer.proximity != nil, let lastHeard = peer.lastHeard, time - lastHeard >= timeout else {
                    continue
                }
                peer.distance = nil
                peer.proximity = nil
                byKey[key] = peer
                events.append(.lostSignal(peer))
            } else if time - peer.lastUpdate >= timeout {
                byKey[key] = nil
                sessionTimes[key] = nil
                events.append(.expired(peer))
            }
        }
        return events
    }

    /// Applies `change` to the peer with `key` (created when new), then evicts beyond ``maximumPeers``.
    private mutating func merge(_ key: PeerKey, at time: Double, _ change: (inout Peer) -> Void) -> [PeerEvent] {
        if var peer = byKey[key] {
            change(&peer)
            peer.lastUpdate = max(peer.lastUpdate, time)
            byKey[key] = peer
            return [.updated(peer)]
        }
        var peer = Peer(key: key, lastUpdate: time)
        change(&peer)
        byKey[key] = peer
        var events: [PeerEvent] = [.appeared(peer)]
        while byKey.count > maximumPeers {
            // The least recently updated other peer; ties go to the smallest key.
            var oldest: Peer?
            for candidate in byKey.values where candidate.key != key {
                if let current = oldest,
                    (current.lastUpdate, current.key) <= (candidate.lastUpdate, candidate.key)
                {
                    continue
                }
                oldest = candidate
            }
            guard let evicted = oldest else { break }
            byKey[evicted.key] = nil
            sessionTimes[evicted.key] = nil
            events.append(.expired(evicted))
        }
        return events
    }
}
