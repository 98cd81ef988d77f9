import IndoorModel

/// A positioning method that keeps a belief about each device and carries it through time: a particle filter, say.
///
/// ``PositioningEngine`` holds one ``Belief`` per device, in the device's slot (freed with it, so memory stays
/// bounded by ``PositioningEngine/deviceLimit`` devices of ``bytesPerBelief``). The first ``step`` seconds after a device is first
/// heard, and then every ``step`` seconds of its own time, the engine hands the belief the device's readings at that
/// moment (``update(_:readings:at:)``; the first time through ``start(device:readings:at:)``). A fix at any time is
/// the belief moved on to that time and weighed by the readings then, on a copy: asking never changes the belief,
/// so fixes are causal and the same whatever was asked before.
///
/// ``estimate(from:)`` of ``PositioningMethod`` is the method's answer without history (a belief started from the
/// readings alone).
protocol SequentialPositioningMethod: PositioningMethod {
    /// What the method knows of one device.
    associatedtype Belief: Sendable

    /// Seconds between the belief's updates (of the device's own time).
    var step: Double { get }

    /// About how many bytes one device's belief holds, for the engine's memory bound
    /// (``PositioningEngine/Configuration/maximumBeliefBytes``). Default: the belief type's own size.
    var bytesPerBelief: Int { get }

    /// A belief for `device` from its readings at `time` (sorted strongest first, never empty); `nil` when they tell
    /// nothing (no node the method knows).
    func start(device: String, readings: [NodeReading], at time: Double) -> Belief?

    /// Moves `belief` on to `time` (seconds; not before its own time) and weighs it by `readings` (sorted strongest
    /// first, never empty).
    func update(_ belief: inout Belief, readings: [NodeReading], at time: Double)

    /// The position the belief gives.
    func estimate(from belief: Belief) -> Result<Estimate, NoFix>
}

extension SequentialPositioningMethod {
    var bytesPerBelief: Int { MemoryLayout<Belief>.stride }

    /// The belief stored in `slot`, or `nil` when it holds none or one of another type.
    static func belief(in slot: (any Sendable)?) -> Belief? { slot as? Belief }
}
