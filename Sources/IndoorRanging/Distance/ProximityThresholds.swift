import IndoorModel

extension Proximity {
    /// The distances, in metres, between the proximity classes: the one classification positioning
    /// (`PositioningEngine.proximities(device:at:)`) and geofencing (the ranger behind every ``RSSIRanger``) use.
    public struct Thresholds: Hashable, Sendable, Codable {
        /// Up to this distance (metres) a beacon is ``Proximity/immediate``.
        public var immediate: Double
        /// Up to this distance (metres, and beyond ``immediate``) a beacon is ``Proximity/near``; beyond,
        /// ``Proximity/far``.
        public var near: Double

        /// 0.5 m and 3 m.
        public static let standard = Thresholds(immediate: 0.5, near: 3)

        /// Thresholds in metres: up to `immediate` a beacon is immediate, up to `near` near, beyond it far (give
        /// `immediate` ≤ `near`); for ``RSSIRanger`` and geofencing's `SmoothingRanger`.
        public init(immediate: Double, near: Double) {
            self.immediate = immediate
            self.near = near
        }

        /// The class of a distance of `meters`: a non-finite or negative distance is ``Proximity/unknown``.
        public func proximity(meters: Double) -> Proximity {
            guard meters.isFinite, meters >= 0 else { return .unknown }
            if meters <= immediate { return .immediate }
            if meters <= near { return .near }
            return .far
        }
    }

    /// The class of a distance in metres (see ``Thresholds/proximity(meters:)``); a non-finite or negative
    /// distance is ``unknown``.
    package init(distance meters: Double, thresholds: Thresholds = .standard) {
        self = thresholds.proximity(meters: meters)
    }
}
