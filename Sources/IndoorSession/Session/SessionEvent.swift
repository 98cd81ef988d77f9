import IndoorGeofencing
import IndoorModel

/// Something a ``LocationSession`` reports: a fix, a zone event, a monitoring event or a peer event.
///
/// Every event carries the data time (seconds on the sightings' clock) at which it happened; a session
/// returns its events in time order.
public enum SessionEvent: Hashable, Sendable {
    /// A position of a device, with latitude and longitude when the venue has a geo anchor.
    case fix(Fix)
    /// A zone check-in, check-out or dwell.
    case zone(ZoneEvent)
    /// A beacon-region monitoring event (enter, ranged beacon, leave, start, stop) of one device's monitor.
    case monitor(MonitorEvent, device: String)
    /// A change in the directory of peers, at `time` seconds (when the session noticed it).
    case peer(PeerEvent, time: Double)

    /// When the event happened, seconds on the sightings' clock.
    public var time: Double {
        switch self {
        case .fix(let fix): fix.time
        case .zone(let event): event.time
        case .monitor(let event, _): event.time
        case .peer(_, let time): time
        }
    }

    /// The `type` field of the event's JSON: `fix`, `zone`, `monitor` or `peer`.
    public var type: String {
        switch self {
        case .fix: "fix"
        case .zone: "zone"
        case .monitor: "monitor"
        case .peer: "peer"
        }
    }
}
