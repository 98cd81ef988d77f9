import Foundation

/// Other values for the default's parameters that were chosen on data, for the experiments that choose them again
/// (each real dataset held out in turn: scripts/leave-one-venue-out.sh); `nil` keeps the default's value.
///
/// They apply to `auto` with a survey and to `particle-filter` (the same filter): the filter's ``leadTime``,
/// ``turnTime`` and ``offsetDrift`` (``ParticleFilter/Configuration``), and ``estimatorSignificance``, the bar the
/// k-NN share must clear on the survey's walks (``EstimatorValidation/significance``).
public struct DefaultTuning: Hashable, Sendable {
    /// ``ParticleFilter/Configuration/leadTime``, seconds.
    public var leadTime: Double?
    /// ``ParticleFilter/Configuration/turnTime``, seconds.
    public var turnTime: Double?
    /// ``ParticleFilter/Configuration/offsetDrift``, dB/√s.
    public var offsetDrift: Double?
    /// ``EstimatorValidation/significance``, standard errors.
    public var estimatorSignificance: Double?

    /// Every parameter's defaults.
    init() {}

    /// The names ``set(_:to:)`` takes, in order.
    public static let names = ["lead-time", "turn-time", "offset-drift", "estimator-bar"]

    /// Sets the parameter called `name` (one of ``names``) to `value`.
    /// - Throws: ``DefaultTuningError`` for another name or a value that is not finite and non-negative.
    public mutating func set(_ name: String, to value: Double) throws(DefaultTuningError) {
        guard value.isFinite, value >= 0 else {
            throw DefaultTuningError(message: "\(name) must be a finite number, 0 or more (got \(value))")
        }
        switch name {
        case "lead-time": leadTime = value
        case "turn-time": turnTime = value
        case "offset-drift": offsetDrift = value
        case "estimator-bar": estimatorSignificance = value
        default:
            throw DefaultTuningError(
                message: "unknown parameter '\(name)'; known: \(Self.names.joined(separator: ", "))")
        }
    }

    /// `filter` with the parameters set here.
    func applied(to filter: ParticleFilter.Configuration) -> ParticleFilter.Configuration {
        var tuned = filter
        if let leadTime { tuned.leadTime = leadTime }
        if let turnTime, turnTime > 0 { tuned.turnTime = turnTime }
        if let offsetDrift { tuned.offsetDrift = offsetDrift }
        return tuned
    }

    /// The estimator's validation over `tracking`'s blocks, with the bar set here.
    func estimatorValidation(tracking: TrackingValidation) -> EstimatorValidation {
        guard let estimatorSignificance else { return EstimatorValidation(tracking: tracking) }
        return EstimatorValidation(significance: estimatorSignificance, tracking: tracking)
    }
}

/// A parameter of ``DefaultTuning`` named or valued wrongly.
public struct DefaultTuningError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, and what is accepted.
    public var message: String
    public var description: String { message }
}
