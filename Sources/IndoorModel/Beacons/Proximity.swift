import Foundation

/// How near a beacon is, in the classes phone platforms report.
///
/// The classes only; the distances that separate them (``Proximity/Thresholds``) and the classification of a
/// distance live in the ranging layer (`IndoorRanging`), the one place both positioning and geofencing take them from.
public enum Proximity: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    case immediate, near, far, unknown

    private var rank: Int {
        switch self {
        case .immediate: 0
        case .near: 1
        case .far: 2
        case .unknown: 3
        }
    }

    /// Nearer classes sort first; ``unknown`` last.
    public static func < (lhs: Proximity, rhs: Proximity) -> Bool { lhs.rank < rhs.rank }
}
