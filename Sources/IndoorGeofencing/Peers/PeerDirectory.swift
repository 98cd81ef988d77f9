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
/// on (as ``advance(to:)``) to its own time. One peer's clock cannot move the directory's present (``clock``)
/// by more than ``horizon``: a call further from it is refused (no event, counted in ``DataClock/outliers``)
/// unless a second peer confirms the new time, and so is an ``advance(to:)`` beyond it.
///
/// Cost: timers (signal loss, expiry, forgetting a leave) wait in a queue by due time and evictions in one by
/// last update, so a call touches only what is due: O(due · log peers), not a pass over every peer.
public struct PeerDirectory: Sendable {
    /// Seconds without a sighting after which a member's distance becomes unknown and a peer that was only
    /// heard expires. Default 30 s.
    public var timeout: Double {
        didSet { if timeout != oldValue { rescheduleAll() } }
    }
    /// Seconds a call's time may lie from the directory's present without a second peer agreeing. Default 3600.
    public var horizon: Double { clock.horizon }
    /// The directory's present; ``DataClock/outliers`` counts the calls refused as too far from it.
    public package(set) var clock: DataClock
    /// The most peers kept; beyond it the least recently updated peer (ties: the smallest key) is evicted.
    /// Default 1000.
    public var maximumPeers: Int
    private var byKey: [PeerKey: Peer] = [:]
    /// Per peer, the time of the newest session data, so that late session data never replaces newer.
    private var sessionTimes: [PeerKey: Double] = [:]
    /// Peers that left the session, with the time they left: session data older than that is late and ignored.
    /// Forgotten after ``timeout`` seconds, so the map stays small.
    private var leaves: [PeerKey: Double] = [:]
    /// Timers, by due time: a member's signal loss (last heard + timeout), a heard-only peer's expiry (last
    /// update + timeout). Entries whose time differs from ``scheduled`` are stale.
    private var timers = ZoneDueQueue<PeerKey>()
    private var scheduled: [PeerKey: Double] = [:]
    /// Peers by last update, for eviction; an entry is stale when the peer's ``Peer/lastUpdate`` differs.
    private var byAge = ZoneDueQueue<PeerKey>()
    /// When each leave may be forgotten (left + timeout); stale when ``leaves`` holds another time.
    private var leaveTimers = ZoneDueQueue<PeerKey>()

    /// The latest time seen, seconds.
    private var now: Double { clock.present }

    /// An empty directory.
    /// - Parameters:
    ///   - seconds: The sighting timeout (see ``timeout``), default 30 s.
    ///   - maximumPeers: The most peers kept (at least 1).
    ///   - horizon: Seconds a call's time may lie from the present without a second peer agreeing (default 3600).
    public init(timeout seconds: Double = 30, maximumPeers: Int = 1000, horizon: Double = 3600) {
        self.timeout = seconds
        self.maximumPeers = max(1, maximumPeers)
        self.clock = DataClock(horizon: horizon)
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
        guard time.isFinite, accepts(time, from: key) else { return [] }
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
        guard time.isFinite, accepts(time, from: key) else { return [] }
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
        guard time.isFinite, accepts(time, from: key) else { return [] }
        var events = advance(to: time)
        if let joined = sessionTimes[key], time < joined { return events }
        let leftAt = max(leaves[key] ?? time, time)
        leaves[key] = leftAt
        leaveTimers.insert(due: leftAt + timeout, key: key)
        sessionTimes[key] = nil
        if let peer = byKey.removeValue(forKey: key) {
            schedule(key)
            events.append(.left(peer))
        }
        return events
    }

    /// Whether a call at `time` from peer `key` may be taken (``DataClock``).
    private mutating func accepts(_ time: Double, from key: PeerKey) -> Bool {
        if case .outlier = clock.observe(time, source: key.text) { return false }
        return true
    }

    /// Moves time on to `time` seconds: members whose beacon has been silent for ``timeout`` seconds lose their
    /// distance (``PeerEvent/lostSignal(_:)``); peers only heard, silent that long, expire.
    /// - Returns: The events, sorted by key.
    /// A time more than ``horizon`` after the present (a tick from a clock that jumped) is refused: nothing
    /// happens, and ``DataClock/outliers`` counts it.
    public mutating func advance(to time: Double) -> [PeerEvent] {
        guard clock.advance(to: time) else { return [] }
        while let entry = leaveTimers.first, entry.due <= now {
            _ = leaveTimers.removeFirst()
            if let leftAt = leaves[entry.key], leftAt + timeout == entry.due { leaves[entry.key] = nil }
        }
        var due: [PeerKey] = []
        while let entry = timers.first, entry.due <= time {
            _ = timers.removeFirst()
            guard scheduled[entry.key] == entry.due else { continue }  // stale
            scheduled[entry.key] = nil
            due.append(entry.key)
        }
        var events: [PeerEvent] = []
        for key in due.sorted() {
            guard var peer = byKey[key] else { continue }
            if peer.isSessionMember {
                peer.distance = nil
                peer.proximity = nil
                byKey[key] = peer
                events.append(.lostSignal(peer))
            } else {
                byKey[key] = nil
                sessionTimes[key] = nil
                events.append(.expired(peer))
            }
            schedule(key)
        }
        return events
    }

    /// When time alone changes the peer with `key`, seconds: a member's signal loss, a heard-only peer's expiry;
    /// `nil` for a member without a distance or an unknown peer.
    private func dueTime(of key: PeerKey) -> Double? {
        guard let peer = byKey[key] else { return nil }
        if peer.isSessionMember {
            guard peer.proximity != nil, let lastHeard = peer.lastHeard else { return nil }
            return lastHeard + timeout
        }
        return peer.lastUpdate + timeout
    }

    /// Puts the peer with `key` in the timer queue at its current due time (and the age queue when new or
    /// updated).
    private mutating func schedule(_ key: PeerKey) {
        let due = dueTime(of: key)
        if due != scheduled[key] {
            scheduled[key] = due
            if let due { timers.insert(due: due, key: key) }
        }
        if timers.count > 2 * scheduled.count + 1024 {
            timers.rebuild(scheduled.map { ZoneDueQueue<PeerKey>.Entry(due: $0.value, key: $0.key) })
        }
        if byAge.count > 2 * byKey.count + 1024 {
            byAge.rebuild(byKey.values.map { ZoneDueQueue<PeerKey>.Entry(due: $0.lastUpdate, key: $0.key) })
        }
        if leaveTimers.count > 2 * leaves.count + 1024 {
            leaveTimers.rebuild(leaves.map { ZoneDueQueue<PeerKey>.Entry(due: $0.value + timeout, key: $0.key) })
        }
    }

    /// Rebuilds every queue (after ``timeout`` changed).
    private mutating func rescheduleAll() {
        scheduled = [:]
        timers.rebuild([])
        for key in byKey.keys {
            if let due = dueTime(of: key) { scheduled[key] = due }
        }
        timers.rebuild(scheduled.map { ZoneDueQueue<PeerKey>.Entry(due: $0.value, key: $0.key) })
        leaveTimers.rebuild(leaves.map { ZoneDueQueue<PeerKey>.Entry(due: $0.value + timeout, key: $0.key) })
    }

    /// Applies `change` to the peer with `key` (created when new), then evicts beyond ``maximumPeers``.
    private mutating func merge(_ key: PeerKey, at time: Double, _ change: (inout Peer) -> Void) -> [PeerEvent] {
        if var peer = byKey[key] {
            let before = peer.lastUpdate
            change(&peer)
            peer.lastUpdate = max(peer.lastUpdate, time)
            byKey[key] = peer
            if peer.lastUpdate != before { byAge.insert(due: peer.lastUpdate, key: key) }
            schedule(key)
            return [.updated(peer)]
        }
        var peer = Peer(key: key, lastUpdate: time)
        change(&peer)
        byKey[key] = peer
        byAge.insert(due: peer.lastUpdate, key: key)
        schedule(key)
        var events: [PeerEvent] = [.appeared(peer)]
        var kept: [ZoneDueQueue<PeerKey>.Entry] = []
        while byKey.count > maximumPeers, let entry = byAge.removeFirst() {
            // The least recently updated other peer; ties go to the smallest key (the queue's order).
            guard let candidate = byKey[entry.key], candidate.lastUpdate == entry.due else { continue }  // stale
            if candidate.key == key {
                kept.append(entry)
                continue
            }
            byKey[candidate.key] = nil
            sessionTimes[candidate.key] = nil
            schedule(candidate.key)
            events.append(.expired(candidate))
        }
        for entry in kept { byAge.insert(due: entry.due, key: entry.key) }
        return events
    }
}
