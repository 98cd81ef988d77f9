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
        /// The data time of the link sighting at which ``applied`` was made, seconds.
        var appliedAt: Double?
        /// How many fits the method has been rebuilt over.
        var revision = 0
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

    /// The data time, seconds (the sightings' own time), of the link sighting at which ``linkFit`` was made and the
    /// method rebuilt over it; `nil` when there is no fit.
    public var linkFitTime: Double? { selfCalibration?.appliedAt }

    /// How many fits the method has been rebuilt over (0 before the first, and without self-calibration): a change
    /// says that ``linkFit`` is new.
    package var linkFitRevision: Int { selfCalibration?.revision ?? 0 }

    /// A link sighting: kept by ``linkCalibration`` and fitted when a fit is due; without self-calibration only judged
    /// and counted.
    /// - Returns: Whether the link was usable.
    mutating func ingestLink(_ sighting: Sighting) -> Bool {
        guard linkCalibration.add(sighting, keep: selfCalibration != nil) == .used else { return false }
        guard var state = selfCalibration,
            abs(sighting.time - state.lastFit) >= linkCalibration.configuration.refitInterval
        else { return true }
        state.lastFit = sighting.time
        selfCalibration = state
        // Forgotten by the engine's present, which one lying clock cannot move far.
        if clock.present.isFinite { linkCalibration.forget(before: clock.present) }
        if let fit = linkCalibration.fit(), !(state.applied.map { fit.isClose(to: $0) } ?? false) {
            adoptLinkFit(fit, at: sighting.time)
        }
        return true
    }

    /// Rebuilds the method over `fit`, a fit that another engine over the same nodes and calibration made from the
    /// same link sightings (a session's primary engine, for its fallback), as if this engine had fitted them itself:
    /// the links are then fitted once, and this engine need not be given them.
    ///
    /// Does nothing without self-calibration (``calibrateFromLinks(rebuild:)``), or when no node of `fit` has a
    /// fitted level.
    /// - Parameter time: The data time of the link sighting at which `fit` was made, seconds.
    package mutating func adoptLinkFit(_ fit: NodeLinkCalibration.Fit, at time: Double) {
        guard var state = selfCalibration,
            let fitted = fit.calibration(over: state.base, nodes: linkCalibration.nodes)
        else { return }
        state.applied = fit
        state.appliedAt = time
        state.revision += 1
        selfCalibration = state
        replace(calibration: fitted, method: state.rebuild(fitted))
    }
}
