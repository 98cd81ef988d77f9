import Foundation

/// How near a beacon is, in the classes phone platforms report.
public enum Proximity: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    case immediate, near, far, unknown

    /// Distance thresholds between the classes, in metres.
    public struct Thresholds: Hashable, Sendable, Codable {
        /// Up to this distance a beacon is ``Proximity/immediate``.
        public var immediate: Double
        /// Up to this distance (and beyond ``immediate``) a beacon is ``Proximity/near``; beyond, ``Proximity/far``.
        public var near: Double

        /// 0.5 m and 3 m.
        public static let standard = Thresholds(immediate: 0.5, near: 3)

        /// Thresholds in metres.
        public init(immediate: Double, near: Double) {
            self.immediate = immediate
            self.near = near
        }
    }

    /// The class of a distance in metres; a non-finite or negative distance is ``unknown``.
    public init(distance meters: Double, thresholds: Thresholds = .standard) {
        guard meters.isFinite, meters >= 0 else {
            self = .unknown
            return
        }
        if meters <= thresholds.immediate {
            self = .immediate
        } else if meters <= thresholds.near {
            self = .near
        } else {
            self = .far
        }
    }

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
