import Foundation

/// Which sightings a venue takes by their time `t`, so that one sighting stamped far ahead (a lying clock, a
/// gateway sending milliseconds) cannot move the venue's present and silence everyone else.
///
/// A venue's `t` is either **Unix seconds** or **seconds of a recording** (any origin, as in the datasets and the
/// demo). The first sighting a venue takes decides: a time from ``unixThreshold`` (2001-09-09) on is Unix time.
/// Then a sighting is taken only within a window of the venue's present:
/// - Unix time: the server's clock, from ``lateness`` seconds before it to ``skew`` seconds after it;
/// - recording time: the venue's latest data time moved on by the wall-clock time since it arrived, from
///   ``lateness`` seconds before that to ``recordingLead`` seconds after it; never a time from ``unixThreshold`` on.
/// A sighting outside the window is refused (an item error naming `t` and the window); the others of its batch
/// are kept.
public struct SightingTimeWindow: Sendable, Hashable {
    /// What a venue's times count.
    public enum Base: String, Sendable, Hashable {
        /// Seconds since 1970-01-01 UTC.
        case unix
        /// Seconds of a recording, from any origin.
        case recording
    }

    /// Times from this value on are Unix seconds (1e9 s: 2001-09-09); below it, seconds of a recording.
    public static let unixThreshold = 1e9

    /// How much older than the venue's present a sighting may be, seconds.
    public var lateness: Double
    /// How far ahead of the server's clock a Unix-time sighting may be, seconds.
    public var skew: Double
    /// How far ahead of the venue's present a recording-time sighting may be, seconds.
    public var recordingLead: Double

    /// A window of `lateness` seconds back, `skew` seconds ahead for Unix time and `recordingLead` seconds ahead for
    /// recording time.
    public init(lateness: Double = 3600, skew: Double = 60, recordingLead: Double = 3600) {
        self.lateness = lateness
        self.skew = skew
        self.recordingLead = recordingLead
    }

    /// The base the first time `t` a venue takes implies.
    public static func base(of time: Double) -> Base { time >= unixThreshold ? .unix : .recording }

    /// The times a venue of `base` takes now: `present` is the venue's present in its own time (`nil` for a
    /// recording venue that has taken nothing yet), `wallClock` the server's clock in Unix seconds.
    public func range(base: Base, present: Double?, wallClock: Double) -> Range<Double> {
        let lower: Double
        let upper: Double
        switch base {
        case .unix:
            (lower, upper) = (wallClock - max(0, lateness), (wallClock + max(0, skew)).nextUp)
        case .recording:
            guard let present else { return -Double.greatestFiniteMagnitude..<Self.unixThreshold }
            (lower, upper) = (present - max(0, lateness), min(present + max(0, recordingLead), Self.unixThreshold))
        }
        // Never an inverted range (a recording's present moved on to 1e9 by the wall clock, settings not numbers):
        // then nothing is taken.
        guard lower.isFinite, upper.isFinite, lower <= upper else { return 0..<0 }
        return lower..<upper
    }

    /// Why `time` is refused by `range`, in words naming the window.
    public static func refusal(_ time: Double, base: Base, range: Range<Double>) -> String {
        let what =
            base == .unix
            ? "this venue's t is Unix seconds: it takes the server's clock − lateness … + skew"
            : "this venue's t is seconds of a recording: it takes its present − lateness … + lead, below 1e9"
        return "t \(time) is outside the venue's window [\(Self.text(range.lowerBound)), "
            + "\(Self.text(range.upperBound))); \(what) (indoor serve --max-lateness, --max-clock-skew)"
    }

    private static func text(_ value: Double) -> String {
        value == -Double.greatestFiniteMagnitude ? "-∞" : String(format: "%.3f", value)
    }
}
