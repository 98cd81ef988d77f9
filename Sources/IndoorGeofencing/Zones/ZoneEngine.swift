import IndoorModel

/// Check-in, check-out and dwell of devices in zones, as a pure state machine over fixes and beacon ranging.
///
/// - A device **checks in** when one of its fixes falls inside a fence, when it ranges one of the zone's
///   beacons at that beacon's check-in proximity or nearer, or when the straight move between two of its
///   consecutive fixes crosses a geoline (the event gives the direction).
/// - With check-out enabled, it **checks out** once it has left every way it was in: fence presence ends when
///   its fixes have been *confidently outside* every fence for ``Zone/checkOutTime`` seconds (a fix is
///   confidently outside when it lies beyond the fence by more than ``Zone/checkOutMargin`` plus the fix's
///   accuracy radius; any other fix restarts the count, so jitter at a boundary never flaps). Beacon presence
///   ends when none of the zone beacons that *admitted* the device (came within their own check-in proximity
///   during this presence) has been heard at all (any proximity) for ``Zone/exitDelay`` seconds; other zone
///   beacons heard only faintly do not hold it. A device inside a fence that has no fix at all for
///   ``Zone/lostTimeout`` seconds is *lost*: its fence presence ends too. Geolines never check out.
/// - Every event names what checked the device in: ``ZoneEvent/fence``, or ``ZoneEvent/beacon`` with its
///   ``ZoneEvent/proximity`` at check-in, or ``ZoneEvent/geoline``; a visit's dwell and check-out repeat it.
/// - A check-out carries its ``ZoneEvent/Reason`` (`left` or `lost`, from the presence that ended last) and
///   the dwell (departure − check-in, where the departure is the last time the device was known to be in:
///   the first confidently-outside fix, the last fix of a lost device, or the last sighting of an admitted
///   beacon). A dwell event fires once per visit when the device is known to have stayed
///   ``Zone/dwellThreshold`` seconds (a fix inside a fence at or after that time — with the lost rule off,
///   simply still inside a fence then — or an admitted zone beacon heard at or after it), so a visit that fires a
///   dwell event always checks out with at least that dwell.
/// - No check-in happens within ``Zone/retriggerTime`` seconds of the previous one's check-out (check-out
///   enabled) or check-in (otherwise), per zone and device. A new check-in also needs a new entry: a device
///   that stayed in the zone does not check in again, not even by crossing one of the zone's geolines.
/// - A disabled zone checks no one in; an open visit still checks out, with `zoneEnabled: false`.
///
/// Time comes only from the inputs and ``advance(to:)``; call `advance` when no input arrives, so that
/// check-outs and dwells are noticed. Every update first moves time on to the input's time. One device's
/// clock cannot move the engine's present (``clock``, a ``DataClock``) by more than
/// ``Configuration/horizon``: an input further from it is refused (no event, counted) unless a second device
/// confirms the new time, and so is an ``advance(to:)`` beyond it.
///
/// Memory: a device's last fix (kept to see geoline crossings) is forgotten after
/// ``Configuration/idleTime`` seconds without a fix, and at most ``Configuration/maximumDevices`` are kept;
/// a device's record in a zone lasts while it is in the zone, has an open visit, or its re-trigger window
/// runs. ``drainActivity()`` hands the activity log over and empties it.
///
/// Cost: a fix is tested only against the fences whose bounding box contains it (a uniform grid), the
/// geolines whose box meets its move, and the zones the device is inside; timers wait in a priority queue
/// by due time, so ``advance(to:)`` touches only what is due. Neither grows with the number of devices.
public struct ZoneEngine: Sendable {
    /// Tuning of the engine's time rules and memory bounds.
    public struct Configuration: Hashable, Sendable {
        /// Seconds an input may lie from the engine's present without a second device agreeing (``DataClock``).
        /// Default 3600.
        public var horizon: Double
        /// Seconds: a fix up to this much older than the same device's last fix is *late* and ignored; an even
        /// older one means the device's clock was set back (or its last fix was stamped ahead), and the device
        /// goes on from it (no geoline crossing from the old fix). Default 60.
        public var lateFixLimit: Double
        /// Seconds without a fix after which a device's last fix is forgotten (a later fix then crosses no
        /// geoline from it). Default 3600.
        public var idleTime: Double
        /// The most devices whose last fix is kept; beyond it the one fixed longest ago is forgotten first.
        /// Default 100 000.
        public var maximumDevices: Int

        /// - Parameters:
        ///   - horizon: Seconds (default 3600); a non-finite or non-positive value takes the default.
        ///   - lateFixLimit: Seconds (default 60); a negative or NaN value takes the default.
        ///   - idleTime: Seconds (default 3600); a non-positive or NaN value takes the default.
        ///   - maximumDevices: At least 1 (default 100 000).
        public init(
            horizon: Double = 3600, lateFixLimit: Double = 60, idleTime: Double = 3600, maximumDevices: Int = 100_000
        ) {
            self.horizon = horizon.isFinite && horizon > 0 ? horizon : 3600
            self.lateFixLimit = lateFixLimit >= 0 ? lateFixLimit : 60
            self.idleTime = idleTime > 0 ? idleTime : 3600
            self.maximumDevices = max(1, maximumDevices)
        }
    }

    /// The engine's tuning.
    public let configuration: Configuration
    /// The engine's present; ``DataClock/outliers`` counts the inputs and advances refused as too far from it.
    public package(set) var clock: DataClock
    /// The zones, in the order given.
    public private(set) var zones: [Zone]
    /// Closed visits, and check-ins without check-out, in the order they happened.
    public private(set) var activity = ActivityLog()
    private let beaconsByNode: [String: BeaconID]
    private let nodesByBeacon: [BeaconID: String]
    /// Only states that differ from a fresh one are kept, so devices that never came near a zone cost nothing.
    private var states: [Key: Presence] = [:]
    /// Timers: (due time, key) entries, some stale; ``scheduled`` says which are current.
    private var queue = ZoneDueQueue<Key>()
    /// The current due time of each key with a timer: the earliest time at which ``advance(to:)`` can change
    /// its state. A queue entry whose time differs is stale.
    private var scheduled: [Key: Double] = [:]
    /// Per device, the indices of the zones whose fences it is inside (sorted).
    private var fenceZonesByDevice: [String: [Int]] = [:]
    private var lastFixes: [String: Fix] = [:]
    /// When each device's last fix may be forgotten (last fix + idle time), lazily: an entry older than the
    /// device's current due time is moved on when it comes up; one entry per device in ``lastFixes``.
    private var idleQueue = ZoneDueQueue<String>()
    /// Zones by the bounding boxes of their fences.
    private let fenceGrid: ZoneGrid
    /// Zones by the bounding boxes of their geolines.
    private let geolineGrid: ZoneGrid
    /// Indices of the zones that have beacons.
    private let beaconZones: [Int]

    private struct Key: Hashable, Sendable, Comparable {
        var zone: Int
        var device: String
        static func < (lhs: Key, rhs: Key) -> Bool { (lhs.zone, lhs.device) < (rhs.zone, rhs.device) }
    }

    /// What checked a device in: the fields that its visit's events carry.
    private struct Opener: Sendable {
        var trigger: ZoneEvent.Trigger
        /// The fence's id, or its index in the zone as text.
        var fence: String?
        /// The beacon's node id, or its identity text.
        var beacon: String?
        /// The beacon's proximity at check-in.
        var proximity: Proximity?
        /// The geoline's id, or its index in the zone as text.
        var geoline: String?
    }

    /// A zone beacon that admitted the device (it came within the beacon's check-in proximity) during the
    /// current beacon presence.
    private struct AdmittedBeacon: Sendable {
        /// The radio, as events name it: node id, else identity text.
        var radio: String
        /// The last time it was heard at all (any proximity, unknown included), seconds.
        var lastHeard: Double
    }

    /// What time alone does to a ``Presence``: the one place where the timer rules are written.
    private enum Change: Sendable {
        /// The open visit is known to have lasted the zone's dwell threshold.
        case dwell
        /// Fence presence ends: confidently outside for the check-out time (`left`) or no fix for the lost
        /// timeout (`lost`).
        case fenceEnds(ZoneEvent.Reason)
        /// Beacon presence ends: no admitted beacon heard for the exit delay.
        case beaconEnds
        /// The re-trigger window of a device no longer in the zone closed: the record is forgotten (no event).
        case forget
    }

    /// What is known of one device with respect to one zone.
    private struct Presence: Sendable {
        /// Inside by its fixes (entered a fence and not yet confidently outside for the check-out time).
        var fenceInside = false
        /// Start of the current run of confidently-outside fixes, while ``fenceInside``.
        var outsideSince: Double?
        /// The time of the device's last fix (anywhere), while ``fenceInside``.
        var fenceLastFix = -Double.infinity
        /// When fence presence last ended: the first confidently-outside fix, or for a lost device its last fix.
        var fenceLeftAt: Double?
        /// The zone beacons that admitted the device during the current beacon presence, with their last-heard
        /// times; empty when not inside by beacons. Other zone beacons heard, never within their own check-in
        /// proximity, neither hold the presence open nor prove a dwell.
        var admitted: [AdmittedBeacon] = []
        /// When beacon presence last ended: the last time an admitted beacon was heard.
        var beaconLeftAt: Double?
        /// The open visit (check-out enabled zones only).
        var visit: OpenVisit?
        /// Start of the re-trigger window.
        var retriggerFrom: Double?

        /// Inside by its beacons (came within check-in proximity, admitted beacons not yet silent for the exit
        /// delay).
        var beaconInside: Bool { !admitted.isEmpty }

        /// The last time any admitted beacon was heard, seconds; −∞ when none.
        var beaconLastHeard: Double { admitted.reduce(-Double.infinity) { max($0, $1.lastHeard) } }

        var isPresent: Bool { fenceInside || beaconInside }

        /// Nothing to remember: equivalent to a fresh state.
        var isIdle: Bool { !fenceInside && !beaconInside && visit == nil && retriggerFrom == nil }

        /// The last time the device is known to have been in the zone, seconds: while inside a fence, its last
        /// fix (or `now`, when given, if the lost rule is off), or the first confidently-outside fix when on its
        /// way out; up to the last sighting of an admitted beacon; after either ended, when it ended. Never
        /// before `checkIn`.
        func lastKnownIn(since checkIn: Double, zone: Zone, now: Double?) -> Double {
            let fenceEvidence: Double?
            if fenceInside {
                fenceEvidence = outsideSince ?? (zone.lostRuleTimeout == nil ? now : fenceLastFix)
            } else {
                fenceEvidence = fenceLeftAt
            }
            let beaconEvidence = beaconInside ? beaconLastHeard : beaconLeftAt
            return max(checkIn, fenceEvidence ?? checkIn, beaconEvidence ?? checkIn)
        }

        /// The next change that time alone makes to this state under `zone`'s rules, and when, in seconds
        /// (−∞: at once, as the evidence is already in); `nil` when only an input can change it.
        ///
        /// Both the timer queue (which schedules the state at this time) and ``ZoneEngine/advance(to:)`` (which
        /// applies changes while their time has come) ask this function, so the rules live here only:
        /// - fence presence ends at the first confidently-outside fix + ``Zone/checkOutTime`` (`left`), or at
        ///   the last fix + ``Zone/lostTimeout`` (`lost`), whichever is earlier (`left` on a tie);
        /// - beacon presence ends at the last time an admitted beacon was heard + ``Zone/exitDelay``;
        /// - the dwell event is due at once when the evidence in shows the visit lasted the threshold, or at
        ///   check-in + threshold while the device is inside a fence whose evidence grows with time (lost rule
        ///   off, not on its way out).
        ///
        /// On equal times the dwell comes first, then the fence, then the beacons, so a check-out (which
        /// follows the last presence to end) always comes after its visit's dwell event.
        func nextChange(zone: Zone) -> (time: Double, change: Change)? {
            var next: (time: Double, change: Change)?
            func consider(_ time: Double?, _ change: Change) {
                guard let time, !time.isNaN else { return }
                if let current = next, !(time < current.time) { return }
                next = (time, change)
            }
            if let threshold = zone.dwellThreshold, let visit, !visit.dwellReported {
                let target = visit.checkIn + threshold
                let growsWithTime = fenceInside && outsideSince == nil && zone.lostRuleTimeout == nil
                if target <= lastKnownIn(since: visit.checkIn, zone: zone, now: nil) {
                    consider(-.infinity, .dwell)
                } else if growsWithTime {
                    consider(target, .dwell)
                }
            }
            if fenceInside {
                let leftDue = outsideSince.map { $0 + zone.checkOutTime }
                let lostDue = zone.lostRuleTimeout.map { fenceLastFix + $0 }
                switch (leftDue, lostDue) {
                case (let left?, let lost?): consider(min(left, lost), .fenceEnds(left <= lost ? .left : .lost))
                case (let left?, nil): consider(left, .fenceEnds(.left))
                case (nil, let lost?): consider(lost, .fenceEnds(.lost))
                case (nil, nil): break
                }
            }
            if beaconInside { consider(beaconLastHeard + zone.exitDelay, .beaconEnds) }
            if !isPresent, visit == nil, let retriggerFrom { consider(retriggerFrom + zone.retriggerTime, .forget) }
            return next
        }
    }

    private struct OpenVisit: Sendable {
        var checkIn: Double
        var opener: Opener
        var dwellReported = false
    }

    /// - Parameters:
    ///   - zones: The zones to watch. Ids should be unique: events name zones by id, and ``setEnabled(_:zone:)``
    ///     acts on the first zone with the id (`indoor replay` rejects a venue with a repeated id).
    ///   - nodes: The venue's nodes, so that a sighting naming a node id matches a zone beacon given by
    ///     identity and the other way round.
    ///   - configuration: Time rules and memory bounds.
    public init(zones: [Zone], nodes: [Node] = [], configuration: Configuration = Configuration()) {
        self.zones = zones
        self.configuration = configuration
        self.clock = DataClock(horizon: configuration.horizon)
        var beaconsByNode: [String: BeaconID] = [:]
        var nodesByBeacon: [BeaconID: String] = [:]
        for node in nodes {
            guard let beacon = node.beacon else { continue }
            beaconsByNode[node.id] = beacon
            nodesByBeacon[beacon] = node.id
        }
        self.beaconsByNode = beaconsByNode
        self.nodesByBeacon = nodesByBeacon
        var fenceBoxes: [(zone: Int, box: ZoneGrid.Box)] = []
        var geolineBoxes: [(zone: Int, box: ZoneGrid.Box)] = []
        for (index, zone) in zones.enumerated() {
            for fence in zone.fences {
                switch fence.shape {
                case .circle(let center, let radius):
                    let corners = [
                        Point2D(x: center.x - radius, y: center.y - radius),
                        Point2D(x: center.x + radius, y: center.y + radius),
                    ]
                    fenceBoxes.append((index, ZoneGrid.Box(around: corners)))
                case .polygon(let polygon):
                    fenceBoxes.append((index, ZoneGrid.Box(around: polygon.vertices)))
                }
            }
            for line in zone.geolines {
                geolineBoxes.append((index, ZoneGrid.Box(around: line.points)))
            }
        }
        fenceGrid = ZoneGrid(boxes: fenceBoxes)
        geolineGrid = ZoneGrid(boxes: geolineBoxes)
        beaconZones = zones.indices.filter { !zones[$0].beacons.isEmpty }
    }

    /// The visits open now (check-in done, check-out to come), sorted by zone order and device.
    public var openVisits: [ZoneVisit] {
        states.keys.sorted().compactMap { key in
            guard let visit = states[key]?.visit else { return nil }
            return visitRecord(zone: zones[key.zone], device: key.device, opener: visit.opener, checkIn: visit.checkIn)
        }
    }

    /// The number of devices whose last fix is remembered (bounded by ``Configuration/maximumDevices``).
    public var rememberedDevices: Int { lastFixes.count }

    /// Hands over the activity log's visits, in the order they were logged, and empties it: a server calls it
    /// (after each batch, say) and persists what it gets, so the log does not grow without end.
    /// - Returns: The closed visits and check-ins without check-out logged since the last drain.
    public mutating func drainActivity() -> [ZoneVisit] {
        let visits = activity.visits
        activity = ActivityLog()
        return visits
    }

    /// Takes over what `previous`, the engine of the venue before it was replaced, knew: each device's presence
    /// in the zones that keep their id (open visits go on, with their check-in time and opener, under this
    /// engine's rules for the zone), each device's last fix, and the present of its clock.
    ///
    /// A visit open in a zone this engine does not have ends at once: its check-out has the reason
    /// ``ZoneEvent/Reason/zoneRemoved``, the time of `previous`'s present and, as its departure, the last time the
    /// device was known to be in the zone. Call it on a fresh engine, before any input.
    /// - Returns: Those check-outs, sorted by zone order and device.
    public mutating func carryVisits(from previous: ZoneEngine) -> [ZoneEvent] {
        clock = previous.clock
        for fix in previous.lastFixes.values.sorted(by: { ($0.time, $0.device) < ($1.time, $1.device) }) {
            remember(fix)
        }
        var closed: [ZoneEvent] = []
        for key in previous.states.keys.sorted() {
            guard let state = previous.states[key] else { continue }
            let zone = previous.zones[key.zone]
            if let index = zones.firstIndex(where: { $0.id == zone.id }) {
                store(state, at: Key(zone: index, device: key.device))
                continue
            }
            guard let visit = state.visit else { continue }
            let departure = state.lastKnownIn(since: visit.checkIn, zone: zone, now: nil)
            var record = visitRecord(zone: zone, device: key.device, opener: visit.opener, checkIn: visit.checkIn)
            record.checkOut = departure
            record.dwell = departure - visit.checkIn
            record.reason = .zoneRemoved
            activity.append(record)
            var checkOut = event(
                .checkOut, zone: zone, device: key.device, at: max(previous.clock.present, departure),
                by: visit.opener, checkIn: visit.checkIn, dwell: departure - visit.checkIn)
            checkOut.departure = departure
            checkOut.reason = .zoneRemoved
            closed.append(checkOut)
        }
        return closed
    }

    /// Makes the visits open in this engine exactly `stored`, the visits a store holds open, without any event:
    /// for an engine rebuilt after a restart by replaying recent inputs, whose own idea of which visits are open
    /// differs from what was recorded before the stop (the replay saw only the last seconds).
    ///
    /// - A visit this engine opened that `stored` does not hold is dropped (the store closed it, or never had
    ///   it): the device's presence stays as the inputs left it, so it checks in again only by a new entry, and
    ///   the end of that presence checks nothing out.
    /// - A visit of `stored` that this engine also has open keeps this engine's presence but takes the stored
    ///   check-in time and opener.
    /// - A visit of `stored` that this engine does not have open is opened as stored. Its presence is what the
    ///   inputs left or, where they left none, the presence its trigger implies, last known at
    ///   `lastSeen[device]` seconds (the device's latest known time; the check-in when absent), so that it checks
    ///   out under this engine's rules (lost or left) unless the device is seen in the zone again.
    ///
    /// Visits of zones this engine does not have, and visits already closed, are ignored. Call it after the
    /// replay and before any new input.
    public mutating func resumeVisits(_ stored: [ZoneVisit], lastSeen: [String: Double] = [:]) {
        var wanted: [Key: ZoneVisit] = [:]
        // A geoline crossing, or a check-in to a zone without check-out, is never open: nothing of it to resume.
        for visit in stored where visit.checkOut == nil && visit.checkIn.isFinite && visit.trigger != .geoline {
            guard let index = zones.firstIndex(where: { $0.id == visit.zone }), zones[index].checkOutEnabled else {
                continue
            }
            wanted[Key(zone: index, device: visit.device)] = visit
        }
        for key in states.keys.sorted() where wanted[key] == nil {
            guard var state = states[key], state.visit != nil else { continue }
            state.visit = nil
            store(state, at: key)
        }
        for key in wanted.keys.sorted() {
            guard let visit = wanted[key] else { continue }
            var state = states[key] ?? Presence()
            let opener = Opener(
                trigger: visit.trigger, fence: visit.fence, beacon: visit.beacon, proximity: visit.proximity,
                geoline: visit.geoline)
            let seen = max(visit.checkIn, lastSeen[key.device] ?? visit.checkIn)
            if !state.isPresent {
                switch visit.trigger {
                case .fence:
                    state.fenceInside = true
                    state.fenceLastFix = seen
                    // The engine's last fix of the device, when outside the zone, has it on its way out.
                    if let fix = lastFixes[key.device],
                        !zones[key.zone].fences.contains(where: { $0.contains(fix.position.horizontal) })
                    {
                        state.outsideSince = fix.time
                    }
                case .beacon:
                    state.admitted = [AdmittedBeacon(radio: visit.beacon ?? "", lastHeard: seen)]
                case .geoline:
                    break
                }
            }
            // A dwell the evidence before the stop already showed was reported then.
            let dwellReported = zones[key.zone].dwellThreshold.map { seen - visit.checkIn >= $0 } ?? false
            state.visit = OpenVisit(checkIn: visit.checkIn, opener: opener, dwellReported: dwellReported)
            store(state, at: key)
        }
    }

    /// How many devices the engine keeps anything of (a presence, a visit, a re-trigger window or a last fix); counted
    /// over its state, for tests and occasional reports.
    public var heldDevices: Int {
        Set(states.keys.map(\.device)).union(lastFixes.keys).count
    }

    /// Whether the engine still keeps anything of `device` that a rule may need: a presence in a zone, an open visit
    /// or a re-trigger window still running. Its last fix alone does not count.
    public func holds(device: String) -> Bool {
        zones.indices.contains { states[Key(zone: $0, device: device)] != nil }
    }

    /// Lets `device` go: its presence in every zone, its open visits and its last fix. A visit still open is checked
    /// out at once (reason ``ZoneEvent/Reason/lost``, at `time` seconds, with the last time the device was known in
    /// the zone as its departure), so that forgetting a device a session had to evict early never leaves a visit
    /// open for good. One heard again afterwards enters anew.
    /// - Returns: Those check-outs, in zone order.
    @discardableResult
    public mutating func forget(device: String, at time: Double) -> [ZoneEvent] {
        var closed: [ZoneEvent] = []
        for index in zones.indices {
            let key = Key(zone: index, device: device)
            guard let state = states[key] else { continue }
            if let visit = state.visit {
                let zone = zones[index]
                let departure = state.lastKnownIn(since: visit.checkIn, zone: zone, now: nil)
                var record = visitRecord(zone: zone, device: device, opener: visit.opener, checkIn: visit.checkIn)
                record.checkOut = departure
                record.dwell = departure - visit.checkIn
                record.reason = .lost
                activity.append(record)
                var checkOut = event(
                    .checkOut, zone: zone, device: device, at: max(time, departure), by: visit.opener,
                    checkIn: visit.checkIn, dwell: departure - visit.checkIn)
                checkOut.departure = departure
                checkOut.reason = .lost
                closed.append(checkOut)
            }
            states[key] = nil
            scheduled[key] = nil
        }
        fenceZonesByDevice[device] = nil
        lastFixes[device] = nil
        return closed
    }

    /// Erases `device`: as ``forget(device:at:)``, but without any check-out (an open visit is dropped, not closed)
    /// and with its visits taken out of ``activity`` too, so that nothing of the device is left (a person's data
    /// erased on request). One heard again afterwards enters anew.
    /// - Returns: Whether the engine held anything of the device.
    @discardableResult
    public mutating func erase(device: String) -> Bool {
        let held = zones.indices.contains { states[Key(zone: $0, device: device)] != nil } || lastFixes[device] != nil
        let logged = activity.visits.count
        activity.visits.removeAll { $0.device == device }
        for index in zones.indices {
            let key = Key(zone: index, device: device)
            states[key] = nil
            scheduled[key] = nil
        }
        fenceZonesByDevice[device] = nil
        lastFixes[device] = nil
        return held || activity.visits.count != logged
    }

    /// Enables or disables the zone with id `zone` from now on (the venue JSON's `enabled`, at run time).
    ///
    /// A disabled zone checks no one in; a visit already open goes on and still checks out, its events carrying
    /// ``ZoneEvent/zoneEnabled`` `false`. Enabling it again checks no one in at once: a check-in needs a new entry,
    /// so a device that entered while the zone was disabled checks in the next time it comes in.
    /// - Returns: Whether such a zone exists (nothing changes when it does not).
    @discardableResult
    public mutating func setEnabled(_ enabled: Bool, zone id: String) -> Bool {
        guard let index = zones.firstIndex(where: { $0.id == id }) else { return false }
        zones[index].isEnabled = enabled
        return true
    }

    /// Takes one fix: fences and geolines.
    ///
    /// A fix with a non-finite time or position is ignored, and so is a fix up to
    /// ``Configuration/lateFixLimit`` seconds older than the device's last fix (a late fix): it would move the
    /// device back in time, so it never checks anyone in or out. An even older fix restarts the device's time
    /// from it (its clock was set back). A fix further than ``Configuration/horizon`` from the engine's present
    /// is refused (``clock``). A NaN accuracy counts as infinite (never confidently outside), a negative one as 0 m.
    /// - Returns: The events due up to and at the fix's time, in time order.
    public mutating func update(with fix: Fix) -> [ZoneEvent] {
        guard fix.time.isFinite, fix.position.x.isFinite, fix.position.y.isFinite else { return [] }
        var previous = lastFixes[fix.device]
        var clockSetBack = false
        if let last = previous, fix.time < last.time {
            guard last.time - fix.time > configuration.lateFixLimit else { return [] }
            clockSetBack = true
            previous = nil
        }
        if case .outlier = clock.observe(fix.time, source: fix.device) { return [] }
        var events = fire(upTo: fix.time)
        let point = fix.position.horizontal
        let accuracy = fix.accuracy.isNaN ? Double.infinity : max(0, fix.accuracy)
        // Every other zone is left as it is by this fix: its fences are out of reach and the device is not
        // inside them (a fix outside a fence changes nothing then), and the move meets none of its geolines.
        var candidates = fenceGrid.zones(containing: point) + (fenceZonesByDevice[fix.device] ?? [])
        if let previous, Self.sameFloor(previous.floor, fix.floor) {
            candidates += geolineGrid.zones(meetingMoveFrom: previous.position.horizontal, to: point)
        }
        candidates.sort()
        var last = -1
        for index in candidates where index != last {
            last = index
            let zone = zones[index]
            let key = Key(zone: index, device: fix.device)
            if !zone.fences.isEmpty {
                // The least signed distance over the fences on the fix's floor (the first one wins ties and NaN).
                var nearest: Double?
                var nearestIndex = 0
                for (fenceIndex, fence) in zone.fences.enumerated() where fence.isOnFloor(fix.floor) {
                    let signed = fence.signedDistance(to: point)
                    if let current = nearest, !(signed < current) { continue }
                    nearest = signed
                    nearestIndex = fenceIndex
                }
                let distance = nearest ?? .infinity
                var state = states[key] ?? Presence()
                if clockSetBack, let since = state.outsideSince, since > fix.time { state.outsideSince = nil }
                if distance <= 0 {
                    state.outsideSince = nil
                    if !state.fenceInside {
                        let wasPresent = state.isPresent
                        state.fenceInside = true
                        state.fenceLeftAt = nil
                        let fence = zone.fences[nearestIndex].id ?? String(nearestIndex)
                        if !wasPresent,
                            let event = checkIn(
                                &state, zone: index, device: fix.device, at: fix.time,
                                by: Opener(trigger: .fence, fence: fence))
                        {
                            events.append(event)
                        }
                    }
                } else if distance > zone.checkOutMargin + accuracy {
                    if state.fenceInside, state.outsideSince == nil { state.outsideSince = fix.time }
                } else {
                    state.outsideSince = nil
                }
                if state.fenceInside { state.fenceLastFix = fix.time }
                store(state, at: key)
            }
            if !zone.geolines.isEmpty, let previous, Self.sameFloor(previous.floor, fix.floor) {
                for (lineIndex, line) in zone.geolines.enumerated()
                where Self.sameFloor(line.floor, fix.floor) && Self.sameFloor(line.floor, previous.floor) {
                    guard let direction = line.crossing(from: previous.position.horizontal, to: point) else { continue }
                    var state = states[key] ?? Presence()
                    if let event = crossGeoline(
                        &state, zone: index, device: fix.device, at: fix.time, line: line.id ?? String(lineIndex),
                        direction: direction)
                    {
                        events.append(event)
                    }
                    store(state, at: key)
                    break
                }
            }
        }
        remember(fix)
        events += fire(upTo: fix.time)
        return events
    }

    /// Keeps `fix` as its device's last fix, forgets the last fixes of devices idle for
    /// ``Configuration/idleTime`` seconds before the present, and keeps at most
    /// ``Configuration/maximumDevices``.
    private mutating func remember(_ fix: Fix) {
        if lastFixes.updateValue(fix, forKey: fix.device) == nil {
            idleQueue.insert(due: fix.time + configuration.idleTime, key: fix.device)
        }
        forgetIdleDevices(before: clock.present)
        while lastFixes.count > configuration.maximumDevices, idleQueue.count > 0 {
            forgetIdleDevices(before: .infinity, atMost: 1)
        }
    }

    /// Pops idle-queue entries due by `time` seconds: a device whose last fix is that old is forgotten, one
    /// fixed since is queued again at its new due time.
    private mutating func forgetIdleDevices(before time: Double, atMost limit: Int = .max) {
        var forgotten = 0
        while forgotten < limit, let entry = idleQueue.first, entry.due <= time {
            _ = idleQueue.removeFirst()
            guard let last = lastFixes[entry.key] else { continue }
            let due = last.time + configuration.idleTime
            if due > entry.due {
                idleQueue.insert(due: due, key: entry.key)
            } else {
                lastFixes[entry.key] = nil
                forgotten += 1
            }
        }
    }

    /// Takes one ranging update: zone beacons.
    /// - Returns: The events due up to and at its time, in time order.
    public mutating func update(with ranging: RangedBeacon) -> [ZoneEvent] {
        guard ranging.time.isFinite else { return [] }
        if case .outlier = clock.observe(ranging.time, source: ranging.device) { return [] }
        var events = fire(upTo: ranging.time)
        let node: String?
        let beacon: BeaconID?
        switch ranging.source {
        case .node(let id):
            node = id
            beacon = beaconsByNode[id]
        case .beacon(let identity):
            node = nodesByBeacon[identity]
            beacon = identity
        }
        // The radio as events name it: its node id when the venue knows it, else its identity.
        let radio = node ?? ranging.source.text
        for index in beaconZones {
            var matches = false
            var admits = false
            for zoneBeacon in zones[index].beacons where zoneBeacon.matches(node: node, beacon: beacon) {
                matches = true
                if zoneBeacon.admits(ranging.proximity) {
                    admits = true
                    break
                }
            }
            guard matches else { continue }
            let key = Key(zone: index, device: ranging.device)
            var state = states[key] ?? Presence()
            if let admitted = state.admitted.firstIndex(where: { $0.radio == radio }) {
                // An admitted beacon heard at any proximity keeps the presence.
                state.admitted[admitted].lastHeard = max(state.admitted[admitted].lastHeard, ranging.time)
            } else if admits {
                // A beacon within its check-in proximity joins the admitted set (and may check in).
                let wasPresent = state.isPresent
                if !state.beaconInside { state.beaconLeftAt = nil }
                state.admitted.append(AdmittedBeacon(radio: radio, lastHeard: ranging.time))
                if !wasPresent,
                    let event = checkIn(
                        &state, zone: index, device: ranging.device, at: ranging.time,
                        by: Opener(trigger: .beacon, beacon: radio, proximity: ranging.proximity))
                {
                    events.append(event)
                }
            } else {
                // Heard, but never within this beacon's check-in proximity: no evidence of presence.
                continue
            }
            store(state, at: key)
        }
        events += fire(upTo: ranging.time)
        return events
    }

    /// Moves time on to `time` seconds: ends fence and beacon presence whose time ran out, checks out visits
    /// that have ended, and fires dwell events.
    ///
    /// A time more than ``Configuration/horizon`` after the engine's present (a tick from a clock that jumped)
    /// is refused: nothing happens, and ``DataClock/outliers`` counts it.
    /// - Returns: The events due, in time order.
    public mutating func advance(to time: Double) -> [ZoneEvent] {
        guard clock.advance(to: time) else { return [] }
        forgetIdleDevices(before: clock.present)
        return fire(upTo: time)
    }

    /// Applies every timer due by `time` seconds.
    /// - Returns: The events due, in time order.
    private mutating func fire(upTo time: Double) -> [ZoneEvent] {
        var events: [ZoneEvent] = []
        var due: [Key] = []
        while let entry = queue.first, entry.due <= time {
            _ = queue.removeFirst()
            guard scheduled[entry.key] == entry.due else { continue }  // stale
            scheduled[entry.key] = nil
            due.append(entry.key)
        }
        guard !due.isEmpty else { return events }
        // Zone order, then device: the order in which events at the same time are reported.
        for key in due.sorted() {
            guard var state = states[key] else { continue }
            let zone = zones[key.zone]
            while let next = state.nextChange(zone: zone), next.time <= time {
                if let event = apply(next.change, at: next.time, to: &state, zone: zone, device: key.device) {
                    events.append(event)
                }
            }
            store(state, at: key)
        }
        // In time order; events at the same time keep their order (zone order, then device).
        return events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// Applies one change that ``Presence/nextChange(zone:)`` found due at `time` seconds.
    /// - Returns: The dwell event, or the check-out when the change ended the last presence of an open visit.
    private mutating func apply(
        _ change: Change, at time: Double, to state: inout Presence, zone: Zone, device: String
    ) -> ZoneEvent? {
        let reason: ZoneEvent.Reason
        switch change {
        case .dwell:
            guard var visit = state.visit, let threshold = zone.dwellThreshold else { return nil }
            visit.dwellReported = true
            state.visit = visit
            return event(
                .dwell, zone: zone, device: device, at: visit.checkIn + threshold, by: visit.opener,
                checkIn: visit.checkIn, dwell: threshold)
        case .fenceEnds(let why):
            state.fenceInside = false
            state.fenceLeftAt = state.outsideSince ?? state.fenceLastFix
            state.outsideSince = nil
            reason = why
        case .beaconEnds:
            state.beaconLeftAt = state.beaconLastHeard
            state.admitted = []
            reason = .left
        case .forget:
            state.retriggerFrom = nil
            return nil
        }
        guard !state.isPresent, let visit = state.visit else { return nil }
        // The departure is the last time the device was known to be in: the first confidently-outside fix, the
        // last fix of a lost device, or the last sighting of an admitted beacon.
        let departure = state.lastKnownIn(since: visit.checkIn, zone: zone, now: nil)
        state.visit = nil
        state.retriggerFrom = time
        var record = visitRecord(zone: zone, device: device, opener: visit.opener, checkIn: visit.checkIn)
        record.checkOut = departure
        record.dwell = departure - visit.checkIn
        record.reason = reason
        activity.append(record)
        var checkOut = event(
            .checkOut, zone: zone, device: device, at: time, by: visit.opener, checkIn: visit.checkIn,
            dwell: departure - visit.checkIn)
        checkOut.departure = departure
        checkOut.reason = reason
        return checkOut
    }

    // MARK: - Transitions

    private mutating func store(_ state: Presence, at key: Key) {
        let wasInside = states[key]?.fenceInside ?? false
        states[key] = state.isIdle ? nil : state
        if wasInside != state.fenceInside {
            var inside = fenceZonesByDevice[key.device] ?? []
            if state.fenceInside {
                inside.insert(key.zone, at: inside.firstIndex { $0 > key.zone } ?? inside.endIndex)
            } else {
                inside.removeAll { $0 == key.zone }
            }
            fenceZonesByDevice[key.device] = inside.isEmpty ? nil : inside
        }
        let due = state.nextChange(zone: zones[key.zone])?.time
        guard due != scheduled[key] else { return }
        scheduled[key] = due
        if let due {
            queue.insert(due: due, key: key)
            // Drop stale entries once they outnumber the live ones.
            if queue.count > 2 * scheduled.count + 1024 {
                queue.rebuild(scheduled.map { ZoneDueQueue<Key>.Entry(due: $0.value, key: $0.key) })
            }
        }
    }

    /// A presence began: check in unless the zone is disabled or the re-trigger window is still open.
    private mutating func checkIn(
        _ state: inout Presence, zone index: Int, device: String, at time: Double, by opener: Opener
    ) -> ZoneEvent? {
        let zone = zones[index]
        guard zone.isEnabled, retriggerAllows(state, zone: zone, at: time) else { return nil }
        var event = event(.checkIn, zone: zone, device: device, at: time, by: opener)
        event.willCheckOut = zone.checkOutEnabled
        if zone.checkOutEnabled {
            state.visit = OpenVisit(checkIn: time, opener: opener)
        } else {
            state.retriggerFrom = time
            activity.append(visitRecord(zone: zone, device: device, opener: opener, checkIn: time))
        }
        return event
    }

    /// A track crossed a geoline: check in (never to check out) unless disabled, within the re-trigger window,
    /// or already in the zone by a fence or a beacon (staying in never checks in twice).
    private mutating func crossGeoline(
        _ state: inout Presence, zone index: Int, device: String, at time: Double, line: String,
        direction: ZoneGeoline.Direction
    ) -> ZoneEvent? {
        let zone = zones[index]
        guard zone.isEnabled, !state.isPresent, retriggerAllows(state, zone: zone, at: time) else { return nil }
        let opener = Opener(trigger: .geoline, geoline: line)
        var event = event(.checkIn, zone: zone, device: device, at: time, by: opener)
        event.direction = direction
        event.willCheckOut = false
        state.retriggerFrom = time
        activity.append(visitRecord(zone: zone, device: device, opener: opener, checkIn: time))
        return event
    }

    private func retriggerAllows(_ state: Presence, zone: Zone, at time: Double) -> Bool {
        guard let from = state.retriggerFrom else { return true }
        return time - from >= zone.retriggerTime
    }

    private func event(
        _ kind: ZoneEvent.Kind, zone: Zone, device: String, at time: Double, by opener: Opener,
        checkIn: Double? = nil, dwell: Double? = nil
    ) -> ZoneEvent {
        ZoneEvent(
            kind: kind, time: time, zone: zone.id, zoneName: zone.name, device: device, trigger: opener.trigger,
            fence: opener.fence, beacon: opener.beacon, proximity: opener.proximity, geoline: opener.geoline,
            checkIn: checkIn, dwell: dwell, data: zone.data, zoneEnabled: zone.isEnabled)
    }

    /// An activity-log row for a visit opened by `opener` at `checkIn` seconds, not (yet) closed.
    private func visitRecord(zone: Zone, device: String, opener: Opener, checkIn: Double) -> ZoneVisit {
        ZoneVisit(
            zone: zone.id, device: device, trigger: opener.trigger, fence: opener.fence, beacon: opener.beacon,
            proximity: opener.proximity, geoline: opener.geoline, checkIn: checkIn)
    }

    private static func sameFloor(_ a: Int?, _ b: Int?) -> Bool {
        guard let a, let b else { return true }
        return a == b
    }
}

extension Zone {
    /// ``lostTimeout`` when the lost-device rule is on (a positive number of seconds), else `nil`.
    fileprivate var lostRuleTimeout: Double? {
        guard let lostTimeout, lostTimeout > 0 else { return nil }
        return lostTimeout
    }
}
