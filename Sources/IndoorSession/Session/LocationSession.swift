import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorPositioning
import IndoorRanging

/// The one pipeline every front end uses: sightings in; fixes, zone, monitoring and peer events out.
///
/// A session composes the engine's parts for one venue: each sighting is checked, ranged once (filtered
/// RSSI, distance, proximity) for zone beacons, beacon monitoring and peers, and given to the positioning
/// engine; a device is located at most every ``SessionConfiguration/fixInterval`` seconds of data time, with the
/// fallback method answering where the configured one cannot (``FallbackPolicy``), and each fix (with latitude
/// and longitude when the venue has an anchor) goes on to the zones.
///
/// ```swift
/// var session = try LocationSession(SessionConfiguration(venue: venue))
/// for event in session.ingest(sightings) { print(event) }   // fixes and zone events, in time order
/// for event in session.advance(to: 120) { print(event) }    // check-outs due by t = 120 s
/// ```
///
/// Pure and deterministic: time comes only from the sightings and from ``advance(to:)``, which a caller
/// invokes when no input arrives so that check-outs, monitoring exits and peer timeouts are noticed
/// (``LocationSessionRunner`` does it from a clock). The same input always gives the same events.
public struct LocationSession: Sendable {
    /// The settings the session was made with (its positioning's, once it adopts another's:
    /// ``adoptPositioning(of:replaying:)``).
    public private(set) var configuration: SessionConfiguration
    /// What the session has done so far.
    public private(set) var statistics = SessionStatistics()

    private(set) var locator: SessionLocator
    private var ranger: any BeaconRanger
    private var zones: ZoneEngine
    private var monitors: [String: BeaconMonitor<RSSIRanger>] = [:]
    private var peers: PeerDirectory?
    /// The session's present: each sighting's time is judged here once (``IndoorModel/DataClock``, horizon
    /// ``IndoorPositioning/PositioningEngine/Configuration/horizon``), and positioning, zones, monitors and peers,
    /// whose clocks follow it, get only what it takes.
    private var clock: DataClock
    /// Per device, the data time of its last fix.
    private var lastFix: [String: Double] = [:]
    /// Per device without a fix yet, the data time of its first sighting: its first fix is due
    /// ``SessionConfiguration/firstFixDelay`` seconds later.
    private var firstHeard: [String: Double] = [:]
    /// The earliest time a first fix of ``firstHeard`` is due (+∞ for none).
    private var nextFirstFix = Double.infinity
    /// When the monitors of every device and the peers were last moved on, seconds.
    private var lastSweep = -Double.infinity
    /// The venue's rooms (zones with polygon fences), `nil` when it has none.
    private let roomMap: RoomMap?
    /// Per device, the room its fixes hold (forgotten with the device, and ``roomMemory`` seconds after its last fix).
    private var rooms: [String: RoomHold] = [:]
    /// The devices held, by when each was last heard: a device silent for ``SessionConfiguration/deviceMemory``
    /// seconds is let go, and beyond ``SessionConfiguration/maximumDevices`` the one silent longest.
    private var roster = DeviceRoster()
    /// The devices let go since ``drainForgottenDevices()`` last took them (at most ``forgottenMemory``, the latest).
    private var forgotten: [String] = []
    /// The most devices ``drainForgottenDevices()`` keeps between two calls.
    static let forgottenMemory = 10_000
    /// When rooms of devices without a recent fix were last forgotten, seconds.
    private var lastRoomPrune = -Double.infinity
    /// Seconds after a device's last fix that its room is kept.
    static let roomMemory = 3600.0

    /// A session over `configuration.venue`.
    ///
    /// - Throws: ``IndoorPositioning/MissingSurveyError`` for a method that needs a survey when none is given;
    ///   ``SessionError`` for settings out of range.
    public init(_ configuration: SessionConfiguration) throws {
        guard configuration.fixInterval.isFinite, configuration.fixInterval >= 0 else {
            throw SessionError("fixInterval must be a number of seconds ≥ 0, not \(configuration.fixInterval)")
        }
        guard configuration.firstFixDelay.isFinite, configuration.firstFixDelay >= 0 else {
            throw SessionError("firstFixDelay must be a number of seconds ≥ 0, not \(configuration.firstFixDelay)")
        }
        guard configuration.monitoringExitDelay.isFinite, configuration.monitoringExitDelay > 0 else {
            throw SessionError(
                "monitoringExitDelay must be a number of seconds > 0, not \(configuration.monitoringExitDelay)")
        }
        if let peers = configuration.peers, !(peers.timeout.isFinite && peers.timeout > 0) {
            throw SessionError("peers.timeout must be a number of seconds > 0, not \(peers.timeout)")
        }
        self.configuration = configuration
        locator = try SessionLocator(configuration)
        ranger = configuration.ranger
        let horizon = configuration.positioning.horizon
        clock = DataClock(horizon: horizon)
        zones = ZoneEngine(zones: configuration.venue.zones, nodes: configuration.venue.nodes)
        zones.clock = .follower(horizon: horizon)
        peers = configuration.peers.map {
            var directory = PeerDirectory(timeout: $0.timeout)
            directory.clock = .follower(horizon: horizon)
            return directory
        }
        roomMap = RoomMap(zones: configuration.venue.zones)
    }

    /// Takes over the positioning of `learned`, a session over the same venue made apart from this one (a server
    /// makes it in the background, since learning from a survey takes seconds), and carries on with everything else:
    /// zone visits, rooms, monitors, peers, statistics and the times of the last fixes.
    ///
    /// The method, fallback, calibration, survey and engine settings become `learned`'s (``configuration`` says so);
    /// what this session's positioning knew of each device is dropped. `recent` are the last sightings this session
    /// has taken: the new positioning hears them (and nothing else of them happens again: no event, no statistic), so
    /// the next fix of a device is made from the readings it would have had, not from the few sightings after the
    /// change. Twice the engine's ``IndoorPositioning/PositioningEngine/Configuration/window`` of them give the same
    /// readings as a session that had the learned positioning from the start.
    /// - Throws: ``SessionError`` when `learned` is over another venue (this session keeps its positioning).
    public mutating func adoptPositioning(of learned: LocationSession, replaying recent: some Sequence<Sighting>)
        throws
    {
        guard learned.configuration.venue == configuration.venue else {
            throw SessionError(
                "the learned session is over venue '\(learned.configuration.venue.id)', not over this session's "
                    + "'\(configuration.venue.id)' as it was when this session started; learn again from it")
        }
        var locator = learned.locator
        for sighting in Self.timeOrdered(recent) where Self.isUsable(sighting) {
            _ = locator.ingest(sighting)
        }
        self.locator = locator
        configuration.method = learned.configuration.method
        configuration.fallback = learned.configuration.fallback
        configuration.calibration = learned.configuration.calibration
        configuration.survey = learned.configuration.survey
        configuration.positioning = learned.configuration.positioning
    }

    /// Carries on from `previous`, the session of the venue before it was replaced by this session's venue: the
    /// zone visits go on in the zones that keep their id (``IndoorGeofencing/ZoneEngine/carryVisits(from:)``), and
    /// the times of the devices' last fixes and their held rooms carry over when the two venues have the same zones.
    /// Positioning, monitors and peers start afresh with the new venue's nodes.
    ///
    /// Call it on a fresh session, before any sighting.
    /// - Returns: The check-outs of the visits whose zone the new venue does not have (reason `zoneRemoved`).
    public mutating func carryVisits(from previous: LocationSession) -> [SessionEvent] {
        let closed = zones.carryVisits(from: previous.zones)
        clock = previous.clock
        lastFix = previous.lastFix
        roster = previous.roster
        lastRoomPrune = previous.lastRoomPrune
        if previous.configuration.venue.zones == configuration.venue.zones { rooms = previous.rooms }
        statistics.zoneEvents += closed.count
        return closed.map { .zone($0) }
    }

    /// Makes the session's open zone visits exactly `stored`, the visits a store holds open, without any event: for a
    /// session rebuilt after a restart by replaying its latest stored sightings, which saw only those last seconds
    /// (``IndoorGeofencing/ZoneEngine/resumeVisits(_:lastSeen:)``). A visit the replay opened that the store does not
    /// hold is dropped; a stored visit goes on with its check-in time and checks out under the zone's rules, last
    /// known at `lastSeen[device]` (seconds of data time) when the replay did not see the device in the zone.
    ///
    /// Call it after the replay, before any new sighting or ``advance(to:)``.
    public mutating func resumeVisits(_ stored: [ZoneVisit], lastSeen: [String: Double] = [:]) {
        zones.resumeVisits(stored, lastSeen: lastSeen)
        for visit in stored where visit.checkOut == nil {
            roster.heard(visit.device, at: lastSeen[visit.device] ?? visit.checkIn)
        }
    }

    /// How many devices the session holds now: those heard within ``SessionConfiguration/deviceMemory`` seconds of its
    /// present, or still needed by a zone rule (at most ``SessionConfiguration/maximumDevices``). It falls as devices
    /// leave; ``SessionStatistics/forgottenDevices`` and ``SessionStatistics/evictedDevices`` count those let go.
    public var heldDevices: Int { roster.count }

    /// Hands over the devices the session let go (after their silence or evicted beyond the cap) since the last call,
    /// in the order they went, and empties the list: for a caller that keeps something of each device beside the
    /// session (a server's trackers), so that it lets it go too. At most the latest 10 000 are kept between calls.
    public mutating func drainForgottenDevices() -> [String] {
        defer { forgotten = [] }
        return forgotten
    }

    /// Erases `device` from the session at once, everywhere (positioning, ranging, zones and their activity log,
    /// monitors, its room, its last fix, the devices let go), without any event: an open visit is dropped, not
    /// checked out. For erasing a person's data on request; a device heard again afterwards is a new device.
    /// - Returns: Whether the session held anything of the device.
    @discardableResult
    public mutating func erase(device: String) -> Bool {
        var held = roster.remove(device)
        held = zones.erase(device: device) || held
        held = (monitors.removeValue(forKey: device) != nil) || held
        held = (rooms.removeValue(forKey: device) != nil) || held
        held = (lastFix.removeValue(forKey: device) != nil) || held
        if firstHeard.removeValue(forKey: device) != nil {
            held = true
            if firstHeard.isEmpty { nextFirstFix = .infinity }
        }
        forgotten.removeAll { $0 == device }
        locator.forget(device: device)
        ranger.forget(device: device)
        return held
    }

    /// How many devices each part of the session keeps state for, counted over that state: for tests that check a
    /// device that is gone is gone everywhere.
    package var heldDevicesByPart: [String: Int] {
        [
            "roster": roster.count, "positioning": locator.deviceCount, "zones": zones.heldDevices,
            "monitors": monitors.count, "rooms": rooms.count, "lastFixes": lastFix.count,
            "ranging": (ranger as? RSSIRanger)?.deviceCount ?? 0,
        ]
    }

    /// The room `device` is in as its fixes so far hold it (``IndoorGeofencing/RoomHold``: held through fixes that
    /// stray over a wall, changed when they settle in another room, unknown when they have left without settling);
    /// `nil` when the venue has no rooms (zones with polygon fences), the device has had no fix in the last hour of
    /// data time, or it was let go after its silence (``SessionConfiguration/deviceMemory``). The room is an index into
    /// the venue's zones.
    public func room(of device: String) -> RoomHold.Answer? {
        rooms[device]?.answer
    }

    /// What the session's positioning learned from node-to-node links: each node's fitted path loss and the links it
    /// used (``IndoorPositioning/NodeLinkCalibration/Fit``); `nil` before the first fit, and always with a survey, a
    /// calibration that knows the path loss, or ``IndoorPositioning/PositioningEngine/Configuration/selfCalibration``
    /// off.
    public var selfCalibration: NodeLinkCalibration.Fit? { locator.linkFit }

    /// The data time, seconds (the sightings' own time, as a fix's), of the link sighting at which
    /// ``selfCalibration`` was made and positioning rebuilt over it; `nil` when there is no fit. A later fit that
    /// moved no level by more than 0.25 dB nor the exponent by more than 0.02
    /// (``IndoorPositioning/NodeLinkCalibration/Fit/isClose(to:dB:exponent:)``) leaves both as they are.
    public var selfCalibrationTime: Double? { locator.linkFitTime }

    /// Whether the session's positioning calibrates itself from node-to-node links (no survey, no path-loss
    /// calibration, ``IndoorPositioning/PositioningEngine/Configuration/selfCalibration`` on).
    public var isSelfCalibrating: Bool { locator.isSelfCalibrating }

    /// Whether `device` names a node of the venue (`node:<id>`, or a node's beacon identity): its sightings are links
    /// between nodes for self-calibration (``IndoorPositioning/NodeLinkCalibration``), never a located device's.
    public func isNodeLink(_ device: String) -> Bool { locator.isNodeLink(device) }

    /// What the session's positioning did with sightings of one node by another: used, ignored and why.
    public var nodeLinkCounts: NodeLinkCalibration.Counts { locator.linkCounts }

    /// The name of the fallback method, when the session has one.
    public var fallbackMethod: String? { locator.fallbackName }

    /// What the survey chose for a session made with one (the default `auto`): the estimator its answers come from
    /// (`particle-filter`, `knn`, or a blend) and its median error in metres on the survey's own walks, cross-validated
    /// (`nil` when the survey has too few walks to validate on); `nil` for a session without a survey or another
    /// method. The figure `indoor evaluate` reports as `validated_median_m`.
    public var surveyValidation: (estimator: String, validatedMedianMeters: Double?)? {
        locator.surveyValidation.map { ($0.estimator, $0.validatedMedian) }
    }

    /// For a session made with a survey that its method (the default `auto`) set aside because the survey passes near
    /// too few of the venue's nodes, how much it covers (``IndoorPositioning/SurveyCoverage``; its `summary` says it in
    /// a sentence): the session then locates as without a survey. `nil` without a survey, when the survey is learned
    /// from, and for methods that do not choose.
    public var surveySetAside: SurveyCoverage? { locator.surveySetAside }

    /// The zone visits open now (check-in done, check-out to come), by zone order then device.
    public var openVisits: [ZoneVisit] { zones.openVisits }

    /// The closed visits and the check-ins without check-out so far, in the order they happened.
    public var activity: ActivityLog { zones.activity }

    /// Takes the closed visits and the check-ins without check-out so far out of the session's activity log
    /// (oldest first), so that a long-running server keeps it bounded: store them, then they are gone from here.
    public mutating func drainActivity() -> [ZoneVisit] { zones.drainActivity() }

    /// The peers known now, by key; empty without ``SessionConfiguration/peers``.
    public var knownPeers: [Peer] { peers?.peers ?? [] }

    /// Takes one sighting.
    ///
    /// A sighting with a non-finite time, or an RSSI that is not finite or outside
    /// ``IndoorModel/Sighting/physicalRSSIRange`` (−130…+20 dBm), is refused (counted, no event). Otherwise it is ranged for zone beacons, monitoring and peers, given to
    /// positioning, and its device is located when its last fix is ``SessionConfiguration/fixInterval`` old.
    /// - Returns: What happened up to and at the sighting's time, in time order.
    public mutating func ingest(_ sighting: Sighting) -> [SessionEvent] {
        statistics.sightings += 1
        guard Self.isUsable(sighting) else {
            statistics.refused += 1
            return []
        }
        // A time too far from the session's present (one device's lying clock) goes nowhere: every part
        // would otherwise judge it alone.
        if case .outlier = clock.observe(sighting.time, source: sighting.device) {
            return finish([])
        }
        // First fixes of other devices that fell due before this sighting, made at their time.
        var events = firstFixesDue(by: sighting.time, except: sighting.device)
        // One node heard by another: a link for self-calibration, never a device, a fix or a zone event.
        if locator.isNodeLink(sighting.device) {
            if locator.ingest(sighting) { statistics.nodeLinks += 1 } else { statistics.ignoredNodeLinks += 1 }
            return finish(events)
        }
        events += hold(sighting.device, at: sighting.time)
        let ranging = ranger.range(sighting)
        events += zones.update(with: ranging).map(SessionEvent.zone)
        // Monitors and peers move on to the present, which one device's far-off clock cannot move.
        events += sweep(to: clock.present)
        if !configuration.monitoring.isEmpty, case .beacon = sighting.source {
            events += monitor(ranging)
        }
        if let options = configuration.peers, case .beacon(let beacon) = sighting.source, beacon.uuid == options.uuid,
            var directory = peers
        {
            events += directory.heard(ranging).map { SessionEvent.peer($0, time: sighting.time) }
            peers = directory
        }
        if !locator.ingest(sighting) { statistics.unknownNodes += 1 }
        if let last = lastFix[sighting.device], sighting.time - last < configuration.fixInterval {
            return finish(events)
        }
        if lastFix[sighting.device] == nil, configuration.firstFixDelay > 0 {
            let first = firstHeard[sighting.device] ?? sighting.time
            if sighting.time < first + configuration.firstFixDelay {
                if firstHeard[sighting.device] == nil {
                    firstHeard[sighting.device] = first
                    nextFirstFix = min(nextFirstFix, first + configuration.firstFixDelay)
                }
                return finish(events)
            }
            firstHeard[sighting.device] = nil
        }
        events += locate(device: sighting.device, at: sighting.time)
        return finish(events)
    }

    /// Locates `device` at `time` and reports it: the fix, the zone events it causes and its room; a failure is
    /// counted.
    private mutating func locate(device: String, at time: Double) -> [SessionEvent] {
        let outcome = locator.locate(device: device, at: time)
        switch outcome.result {
        case .failure(let noFix):
            statistics.noFix[noFix.code.name, default: 0] += 1
            return []
        case .success(var fix):
            lastFix[device] = time
            fix.coordinate = configuration.venue.anchor?.coordinate(of: fix.position.horizontal)
            statistics.fixes += 1
            if let code = outcome.fellBackBecause { statistics.fallbacks[code.name, default: 0] += 1 }
            var events = [SessionEvent.fix(fix)]
            events += zones.update(with: fix).map(SessionEvent.zone)
            if let roomMap {
                _ = rooms[fix.device, default: RoomHold()].update(
                    point: fix.position.horizontal, floor: fix.floor, at: fix.time, in: roomMap)
            }
            return events
        }
    }

    /// Makes the first fixes still waiting for ``SessionConfiguration/firstFixDelay``, each at `time` seconds or when it
    /// falls due if that is earlier: for the end of a recording, where no later input would make them.
    /// - Returns: The fixes and the zone events they cause, in time order.
    public mutating func flushFirstFixes(at time: Double) -> [SessionEvent] {
        var events: [SessionEvent] = []
        for (device, first) in firstHeard.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
            let due = first + configuration.firstFixDelay
            events += locate(device: device, at: time.isFinite ? max(first, min(due, time)) : due)
        }
        firstHeard = [:]
        nextFirstFix = .infinity
        return finish(events)
    }

    /// The first fixes due by `time` (``SessionConfiguration/firstFixDelay`` after each waiting device's first
    /// sighting), made at the time each fell due, earliest first; `except` is left to its own sighting.
    private mutating func firstFixesDue(by time: Double, except: String? = nil) -> [SessionEvent] {
        guard time >= nextFirstFix else { return [] }
        var events: [SessionEvent] = []
        var next = Double.infinity
        let delay = configuration.firstFixDelay
        for (device, first) in firstHeard.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
            let due = first + delay
            guard due <= time, device != except else {
                next = min(next, due)
                continue
            }
            firstHeard[device] = nil
            events += locate(device: device, at: due)
        }
        nextFirstFix = next
        return events
    }

    /// Takes a batch of sightings (from a gateway, say), in time order: the batch is sorted by time first,
    /// keeping the given order among sightings of the same time.
    /// - Returns: What happened, in time order.
    public mutating func ingest(_ sightings: some Sequence<Sighting>) -> [SessionEvent] {
        var events: [SessionEvent] = []
        for sighting in Self.timeOrdered(sightings) {
            events += ingest(sighting)
        }
        return events
    }

    /// Session data about a peer arrived (its display name or picture); `nil` fields leave what is known.
    /// Ignored without ``SessionConfiguration/peers``.
    /// - Returns: The peer events, in time order.
    public mutating func updatePeer(
        _ key: PeerKey, displayName: String? = nil, picture: Data? = nil, at time: Double
    ) -> [SessionEvent] {
        guard var directory = peers, time.isFinite else { return [] }
        if case .outlier = clock.observe(time, source: key.text) {
            return finish([])
        }
        var events = sweep(to: clock.present)
        events += directory.update(key, displayName: displayName, picture: picture, at: time).map {
            SessionEvent.peer($0, time: time)
        }
        peers = directory
        return finish(events)
    }

    /// A peer left the session at `time` seconds (an explicit leave from the app's session service): it is
    /// forgotten, with a `left` event (``IndoorGeofencing/PeerDirectory/left(_:at:)``: a leave older than the peer's
    /// newest session data is ignored). Ignored without ``SessionConfiguration/peers``.
    /// - Returns: The peer events, in time order.
    public mutating func peerLeft(_ key: PeerKey, at time: Double) -> [SessionEvent] {
        guard var directory = peers, time.isFinite else { return [] }
        if case .outlier = clock.observe(time, source: key.text) {
            return finish([])
        }
        var events = sweep(to: clock.present)
        events += directory.left(key, at: time).map { SessionEvent.peer($0, time: time) }
        peers = directory
        return finish(events)
    }

    /// Enables or disables the venue's zone with id `id` from now on, without restarting anything (the zone JSON's
    /// `enabled`, at run time; ``IndoorGeofencing/ZoneEngine/setEnabled(_:zone:)``).
    ///
    /// A disabled zone checks no one in; a visit already open goes on and still checks out, its events carrying
    /// `zoneEnabled: false`. Enabled again, it checks in a device at its next entry, not at once.
    /// - Returns: Whether the venue has such a zone (nothing changes when it has not).
    @discardableResult
    public mutating func setZone(_ id: String, enabled: Bool) -> Bool {
        zones.setEnabled(enabled, zone: id)
    }

    /// The user revoked location authorisation at `time` seconds: every device's beacon monitoring stops with
    /// ``IndoorGeofencing/MonitorEvent/didStopObserving(_:)``, reason
    /// ``IndoorGeofencing/ObservationStop/Reason/authorizationRevoked``, naming the conditions and the beacons that
    /// were being ranged (``IndoorGeofencing/BeaconMonitor/revokeAuthorization(at:)``). The monitors are then
    /// forgotten: a device's monitoring starts afresh (`didStartObserving`) at its next beacon sighting, once the
    /// radio is allowed again. Positioning, zones and peers are not affected.
    /// - Returns: The stop events, by device; none without ``SessionConfiguration/monitoring`` or for a non-finite
    ///   time.
    public mutating func revokeAuthorization(at time: Double) -> [SessionEvent] {
        guard time.isFinite else { return [] }
        var events: [SessionEvent] = []
        for device in monitors.keys.sorted() {
            guard var monitor = monitors[device] else { continue }
            events += monitor.revokeAuthorization(at: time).map { SessionEvent.monitor($0, device: device) }
        }
        monitors = [:]
        return finish(events)
    }

    /// "The time is now `time` seconds": check-outs, dwells, monitoring exits and peer timeouts due by then.
    ///
    /// Call it when no sighting arrives (once a second, say); a time before the latest seen changes nothing.
    /// - Returns: The events due, in time order.
    public mutating func advance(to time: Double) -> [SessionEvent] {
        guard clock.advance(to: time) else { return finish([]) }
        var events = firstFixesDue(by: time)
        events += zones.advance(to: time).map(SessionEvent.zone)
        events += sweep(to: time, force: true)
        return finish(events)
    }

    /// The position of `device` at `time` seconds from what has been ingested so far, without reporting it.
    ///
    /// With a tracked method (``SessionConfiguration/method`` with `tracking`) this is the tracker's state moved on
    /// to `time` and updated with the current estimate, not just the latest snapshot. The fallback answers where
    /// the method cannot (``FallbackPolicy``), and the fix carries latitude and longitude when the venue has an
    /// anchor. Nothing is counted in ``statistics`` and no event is produced: the scan provider asks this once, at
    /// the end of a scan.
    /// - Returns: The fix, or why there is none.
    public func locate(device: String, at time: Double) -> Result<Fix, NoFix> {
        locator.locate(device: device, at: time).result.map { fix in
            var located = fix
            located.coordinate = configuration.venue.anchor?.coordinate(of: fix.position.horizontal)
            return located
        }
    }

    /// The nodes `device` has been heard from within the positioning window before `time` seconds, strongest
    /// first: the readings a fix at `time` is made from.
    public func readings(device: String, at time: Double) -> [NodeReading] {
        locator.readings(device: device, at: time)
    }

    // MARK: - Parts

    /// Whether the session takes `sighting`: a finite time and an RSSI within
    /// ``IndoorModel/Sighting/physicalRSSIRange``.
    private static func isUsable(_ sighting: Sighting) -> Bool {
        sighting.time.isFinite && Sighting.physicalRSSIRange.contains(sighting.rssi)
    }

    /// `sightings` sorted by time, keeping the given order among sightings of the same time.
    private static func timeOrdered(_ sightings: some Sequence<Sighting>) -> [Sighting] {
        sightings.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// Ranging of a beacon for the monitor of the device that heard it (started on its first beacon).
    private mutating func monitor(_ ranging: RangedBeacon) -> [SessionEvent] {
        var events: [MonitorEvent] = []
        var monitor: BeaconMonitor<RSSIRanger>
        if let known = monitors[ranging.device] {
            monitor = known
        } else {
            monitor = BeaconMonitor(ranger: RSSIRanger(), exitDelay: configuration.monitoringExitDelay)
            monitor.clock = .follower(horizon: configuration.positioning.horizon)
            // `start` fails only for an empty list or missing capabilities; neither applies here.
            events += (try? monitor.start(configuration.monitoring, at: ranging.time)) ?? []
        }
        events += monitor.ingest(ranged: ranging)
        monitors[ranging.device] = monitor
        return events.map { SessionEvent.monitor($0, device: ranging.device) }
    }

    /// Moves the monitors of every device and the peers on to `time`: at most once a second of data time
    /// (their events still carry the exact time at which they were due), or whenever `force` is set.
    private mutating func sweep(to time: Double, force: Bool = false) -> [SessionEvent] {
        guard force || time >= lastSweep + 1 else { return [] }
        lastSweep = time
        var events: [SessionEvent] = []
        for device in monitors.keys.sorted() {
            guard var monitor = monitors[device] else { continue }
            events += monitor.advance(to: time).map { SessionEvent.monitor($0, device: device) }
            monitors[device] = monitor
        }
        if var directory = peers {
            events += directory.advance(to: time).map { SessionEvent.peer($0, time: time) }
            peers = directory
        }
        events += forgetSilentDevices(at: time)
        if time >= lastRoomPrune + 60 {
            lastRoomPrune = time
            for (device, hold) in rooms where hold.lastTime < time - Self.roomMemory {
                rooms[device] = nil
            }
        }
        return events
    }

    /// Holds `device`, heard at `time` seconds; a new device beyond ``SessionConfiguration/maximumDevices`` evicts the
    /// device silent longest.
    /// - Returns: The check-outs of the evicted device's open visits.
    private mutating func hold(_ device: String, at time: Double) -> [SessionEvent] {
        let isNew = !roster.contains(device)
        roster.heard(device, at: time)
        guard isNew, roster.count > configuration.maximumDevices else { return [] }
        guard let oldest = roster.popOldest() else { return [] }
        if oldest == device {
            roster.keep(device, until: time)
            return []
        }
        statistics.evictedDevices += 1
        return forget(oldest, at: time)
    }

    /// Lets go of the devices silent for ``SessionConfiguration/deviceMemory`` seconds by `time`; one a zone rule
    /// still needs (a presence, an open visit, a re-trigger window) or whose first fix still waits is held for another
    /// such period.
    private mutating func forgetSilentDevices(at time: Double) -> [SessionEvent] {
        var events: [SessionEvent] = []
        var kept: [String] = []
        while let device = roster.popSilent(before: time - configuration.deviceMemory) {
            if zones.holds(device: device) || firstHeard[device] != nil {
                kept.append(device)
                continue
            }
            statistics.forgottenDevices += 1
            events += forget(device, at: time)
        }
        for device in kept { roster.keep(device, until: time) }
        return events
    }

    /// Lets `device` go everywhere: positioning, ranging, zones (an open visit is checked out, `lost`), monitors,
    /// its room and its last fix.
    private mutating func forget(_ device: String, at time: Double) -> [SessionEvent] {
        forgotten.append(device)
        if forgotten.count > Self.forgottenMemory { forgotten.removeFirst(forgotten.count - Self.forgottenMemory / 2) }
        locator.forget(device: device)
        ranger.forget(device: device)
        monitors[device] = nil
        rooms[device] = nil
        lastFix[device] = nil
        if firstHeard.removeValue(forKey: device) != nil, firstHeard.isEmpty { nextFirstFix = .infinity }
        return zones.forget(device: device, at: time).map(SessionEvent.zone)
    }

    /// Counts `events` and puts them in time order (events of the same time keep their order).
    private mutating func finish(_ events: [SessionEvent]) -> [SessionEvent] {
        statistics.clockOutliers = clock.outliers
        for event in events {
            switch event {
            case .fix: break
            case .zone: statistics.zoneEvents += 1
            case .monitor: statistics.monitorEvents += 1
            case .peer: statistics.peerEvents += 1
            }
        }
        return events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }
}
