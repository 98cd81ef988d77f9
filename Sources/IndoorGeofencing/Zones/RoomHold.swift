import IndoorModel

/// The room one device is in, as a tracker should answer it: held through fixes that stray across a wall for a
/// moment, changed when the fixes have settled in another room, and "unknown" when they have left the room held
/// without settling anywhere.
///
/// Fixes jitter by a metre or two; in a building of small rooms the raw room of each fix (``RoomMap/room(at:floor:)``)
/// flaps between neighbours, the complaint users of indoor products make most. The rules, per fix, in time order:
///
/// - A fix **supports** the held room when it lies inside the room or within ``Configuration/margin`` metres of
///   it on the fix's floor (no room held: when it lies in no room).
/// - A fix that does not support the held room makes its own raw room the **candidate** (a new candidate restarts
///   the count). The answer changes to the candidate once the candidate has been every fix's raw room for
///   ``Configuration/settleTime`` seconds, or at once when the fix lies deeper than ``Configuration/depth``
///   metres inside it.
/// - Until then the answer stays the held room, unless no fix has supported it for ``Configuration/unknownAfter``
///   seconds: then the answer is ``Answer/unknown`` (the device is neither where it was nor settled anywhere).
///
/// The defaults were chosen by measurement on a simulated office: docs/notes/room-hold-defaults.md.
///
/// The first fix's raw room is held at once: there is nothing to hold yet. Time comes from the fixes only; a fix
/// older than the last one is answered from the state without changing it.
public struct RoomHold: Hashable, Sendable {
    /// Tuning of the hold.
    public struct Configuration: Hashable, Sendable {
        /// Metres outside the held room within which a fix still supports it. Default 0.25.
        public var margin: Double
        /// Seconds a new room must be every fix's room before the answer changes to it. Default 2.
        public var settleTime: Double
        /// Metres inside a new room beyond which one fix changes the answer at once. Default 0.5.
        public var depth: Double
        /// Seconds without a supporting fix after which the answer is unknown while no new room has settled.
        /// Default 8.
        public var unknownAfter: Double

        /// - Parameters:
        ///   - margin: Metres outside the held room that still support it (default 0.25; at least 0).
        ///   - settleTime: Seconds a new room needs before the answer changes (default 2; at least 0).
        ///   - depth: Metres inside a new room that change the answer at once (default 0.5; infinity: never).
        ///   - unknownAfter: Seconds without support before the answer is unknown (default 8).
        public init(margin: Double = 0.25, settleTime: Double = 2, depth: Double = 0.5, unknownAfter: Double = 8) {
            self.margin = margin.isFinite ? max(0, margin) : 0.25
            self.settleTime = settleTime.isFinite ? max(0, settleTime) : 2
            self.depth = depth.isNaN ? 0.5 : max(0, depth)
            self.unknownAfter = unknownAfter.isNaN ? 8 : max(0, unknownAfter)
        }
    }

    /// What the hold answers for a fix.
    public enum Answer: Hashable, Sendable {
        /// In the room at this index of the venue's zones.
        case room(Int)
        /// In no room (outside every polygon fence).
        case noRoom
        /// Fixes left the held room and have not settled anywhere.
        case unknown

        /// The room from a zone index, `nil` for none.
        package init(_ room: Int?) {
            self = room.map(Answer.room) ?? .noRoom
        }
    }

    public let configuration: Configuration
    /// The room held (a zone index, `nil` for no room); `.none` until the first fix.
    private var held: Int??
    /// The time of the last fix that supported the held room, seconds.
    private var supportedAt = -Double.infinity
    /// The raw room of the fixes since ``candidateSince`` that did not support the held room.
    private var candidate: Int??
    private var candidateSince = 0.0
    /// The time of the last fix taken, seconds (−infinity before the first).
    public private(set) var lastTime = -Double.infinity
    private var lastAnswer = Answer.unknown

    /// The answer to the last fix taken (``Answer/unknown`` before the first).
    public var answer: Answer { lastAnswer }

    /// A hold with nothing held yet.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The answer after a fix at `point` (metres, venue frame) on `floor` at `time` (seconds), in `rooms`.
    public mutating func update(point: Point2D, floor: Int?, at time: Double, in rooms: RoomMap) -> Answer {
        guard time.isFinite, point.x.isFinite, point.y.isFinite else { return lastAnswer }
        guard time >= lastTime else { return lastAnswer }
        lastTime = time
        let raw = rooms.room(at: point, floor: floor)
        guard let current = held else {
            hold(raw, at: time)
            return lastAnswer
        }
        let supports: Bool
        if let room = current {
            supports = rooms.signedDistance(from: point, toRoom: room, floor: floor) <= configuration.margin
        } else {
            supports = raw == nil
        }
        if supports {
            supportedAt = time
            candidate = .none
            lastAnswer = Answer(current)
            return lastAnswer
        }
        if candidate != .some(raw) {
            candidate = .some(raw)
            candidateSince = time
        }
        let deep =
            raw.map { -rooms.signedDistance(from: point, toRoom: $0, floor: floor) > configuration.depth } ?? false
        if deep || time - candidateSince >= configuration.settleTime {
            hold(raw, at: time)
        } else {
            lastAnswer = time - supportedAt >= configuration.unknownAfter ? .unknown : Answer(current)
        }
        return lastAnswer
    }

    private mutating func hold(_ room: Int?, at time: Double) {
        held = .some(room)
        supportedAt = time
        candidate = .none
        lastAnswer = Answer(room)
    }
}
