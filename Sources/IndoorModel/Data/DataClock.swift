/// The "present" of an engine that takes its time from the data, robust to one source with a lying clock.
///
/// Each time comes from a *source* (a device, a peer): the clock it was stamped by. The rules:
/// - The first time seen sets the present. While only one source has ever been seen, its times are all
///   taken and the present follows them (a phone's own engine hears only itself: a night's pause or a clock
///   reset of that one device is simply taken).
/// - Once several sources have been seen, a time within ``horizon`` seconds of the present (either way) is
///   accepted and the present becomes the latest accepted time.
/// - A time further from the present than ``horizon`` (one bogus timestamp, a device whose clock is a day or
///   decades off, a clock reset to 1970) is an **outlier**, counted in ``outliers``: it does not move the
///   present, and the engine either leaves it out or lets it drive only its own source's state (a positioning
///   engine on its own does; zones and peers, whose timers all run on the present, refuse it). It is
///   remembered as a *pending jump*; when the next time beyond
///   the horizon comes from a **different** source and lies within ``horizon`` of the pending one, both
///   clocks agree and the present jumps there (``Outcome/jumped(from:)``; the later of the two). Any accepted
///   time in between forgets the pending jump. So venue-wide time that really moved on (after a pause of
///   the whole venue longer than the horizon) is adopted with the second source's sighting, while one device
///   alone can never move the present by more than the horizon.
///
/// Limits: a source within the horizon moves the present (an engine's expiries then run up to `horizon`
/// seconds early for the others; choose the horizon accordingly), and two different sources that agree on
/// the same wrong time, one right after the other, are adopted.
///
/// A part of a larger engine whose times that engine has already judged (a `LocationSession` judges each
/// sighting once, for positioning, zones, monitors and peers alike) uses a ``follower(horizon:)``: it takes every
/// finite time, as a clock with one source does.
///
/// Deterministic: no clock is read; only the times given. Times are seconds.
public struct DataClock: Hashable, Sendable {
    /// What ``observe(_:source:)`` decided.
    public enum Outcome: Hashable, Sendable {
        /// The time is within the horizon of the present (or the only source's): take it.
        case accepted
        /// The time is within the horizon of a confirmed jump: take it. The present moved from `from`
        /// seconds by more than the horizon (forwards or backwards); state stamped on the old time line may
        /// need sweeping.
        case jumped(from: Double)
        /// The time is too far from the present, or not finite: it did not move the present (counted in
        /// ``outliers``). Leave it out, or use it for its own source's state only.
        case outlier
    }

    private struct Pending: Hashable, Sendable {
        var source: String
        var time: Double
    }

    /// How far from the present, in seconds, a time from one source is taken without a second source
    /// agreeing. Default 3600 (one hour); a non-finite or non-positive value takes the default.
    public let horizon: Double
    /// The present, seconds: the latest accepted time (−∞ before the first).
    public private(set) var present = -Double.infinity
    /// How many times were outliers (too far from the present, or not finite) or refused advances.
    public private(set) var outliers = 0
    /// The only source seen so far, until a second one appears.
    private var soleSource: String?
    private var severalSources = false
    private var pending: Pending?
    /// Takes every finite time, judged by the caller (``follower(horizon:)``).
    private var follows = false

    /// A clock that has seen nothing yet.
    /// - Parameter horizon: Seconds (default 3600).
    package init(horizon: Double = 3600) {
        self.horizon = horizon.isFinite && horizon > 0 ? horizon : 3600
    }

    /// A clock for a part whose times another clock has already judged: every finite time is taken, from any
    /// source, as a clock with a single source takes them (one beyond the horizon from the present is a jump at
    /// once), and ``advance(to:)`` is taken at any distance. The caller leaves out what its own clock calls an
    /// outlier, so the part and the caller agree on every time.
    /// - Parameter horizon: Seconds beyond which a time is a jump (default 3600).
    public static func follower(horizon: Double = 3600) -> DataClock {
        var clock = DataClock(horizon: horizon)
        clock.follows = true
        return clock
    }

    /// Judges `time` (seconds) stamped by `source`, and moves the present when it is taken.
    public mutating func observe(_ time: Double, source: String) -> Outcome {
        guard time.isFinite else {
            outliers += 1
            return .outlier
        }
        guard present > -.infinity else {
            present = time
            soleSource = source
            return .accepted
        }
        if !severalSources {
            if source == soleSource || follows {
                let old = present
                if abs(time - present) > horizon {
                    present = time
                    return .jumped(from: old)
                }
                present = max(present, time)
                return .accepted
            }
            severalSources = true
            soleSource = nil
        }
        if abs(time - present) <= horizon {
            pending = nil
            present = max(present, time)
            return .accepted
        }
        if let pending, pending.source != source, abs(time - pending.time) <= horizon {
            let old = present
            present = max(time, pending.time)
            self.pending = nil
            return .jumped(from: old)
        }
        pending = Pending(source: source, time: time)
        outliers += 1
        return .outlier
    }

    /// A caller's "the time is now `time` seconds" (a timer tick): moves the present forwards when `time` is
    /// within the horizon of it.
    /// - Returns: whether `time` may be used; `false` (counted in ``outliers``) beyond the horizon or for a
    ///   non-finite time. A time before the present is allowed (it changes nothing).
    public mutating func advance(to time: Double) -> Bool {
        guard time.isFinite else {
            outliers += 1
            return false
        }
        guard present > -.infinity else { return true }
        guard time - present <= horizon || follows else {
            outliers += 1
            return false
        }
        present = max(present, time)
        return true
    }
}
