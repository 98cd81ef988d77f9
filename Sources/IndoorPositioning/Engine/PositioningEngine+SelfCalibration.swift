import IndoorModel

extension PositioningEngine {
    /// Self-calibration's state in an engine: the calibration it was made with, how its method is rebuilt over a fit,
    /// when it last fitted and the fit it applied.
    struct SelfCalibration: Sendable {
        /// The calibration the engine was made with (no survey, no path-loss fit): what a fit is applied over.
        var base: Calibration
        /// The engine's method made over a calibration (the catalogue's entry, as ``EngineFactory`` made it).
        var rebuild: @Sendable (Calibration) -> any PositioningMethod
        /// The data time of the last fit, seconds.
        var lastFit = -Double.infinity
        /// The fit the method was last rebuilt over.
        var applied: NodeLinkCalibration.Fit?
    }

    /// Turns self-calibration on: from now on, every ``NodeLinkCalibration/Configuration/refitInterval`` seconds of
    /// link sightings' time the links are fitted and, when the fit moved (``NodeLinkCalibration/Fit/isClose(to:dB:exponent:)``),
    /// the method is rebuilt over ``NodeLinkCalibration/Fit/calibration(over:nodes:)`` of the engine's calibration.
    ///
    /// - Parameter rebuild: The engine's method made over a calibration.
    public mutating func calibrateFromLinks(rebuild: @escaping @Sendable (Calibration) -> any PositioningMethod) {
        selfCalibration = SelfCalibration(base: calibration, rebuild: rebuild)
    }

    /// Whether the engine fits node-to-node links (``calibrateFromLinks(rebuild:)``).
    public var isSelfCalibrating: Bool { selfCalibration != nil }

    /// The fit from node-to-node links the method now works over; `nil` before the first (or without
    /// self-calibration).
    public var linkFit: NodeLinkCalibration.Fit? { selfCalibration?.applied }

    /// A link sighting: kept by ``linkCalibration``, and fitted when a fit is due.
    /// - Returns: Whether the link was usable.
    mutating func ingestLink(_ sighting: Sighting) -> Bool {
        guard linkCalibration.add(sighting) == .used else { return false }
        guard var state = selfCalibration,
            abs(sighting.time - state.lastFit) >= linkCalibration.configuration.refitInterval
        else { return true }
        state.lastFit = sighting.time
        // Forgotten by the engine's present, which one lying clock cannot move far.
        if clock.present.isFinite { linkCalibration.forget(before: clock.present) }
        if let fit = linkCalibration.fit(), !(state.applied.map { fit.isClose(to: $0) } ?? false),
            let fitted = fit.calibration(over: state.base, nodes: linkCalibration.nodes)
        {
            state.applied = fit
            replace(calibration: fitted, method: state.rebuild(fitted))
        }
        selfCalibration = state
        return true
    }
}
