/// What the simulator builds and how the radio behaves. The defaults make a realistic office floor.
///
/// Distances are metres, times seconds, signal strengths dBm, losses dB.
public struct SimulatorOptions: Hashable, Sendable {
    /// The seed of every random draw; the same seed and options give the same dataset.
    public var seed: UInt64 = 1

    // Building
    /// Number of floors, levels 0, 1, …
    public var floors: Int = 1
    /// Rooms on each side of the central corridor, per floor.
    public var roomsPerSide: Int = 8
    /// Width of a room along the corridor, metres.
    public var roomWidth: Double = 5
    /// Depth of a room from the corridor to the outer wall, metres.
    public var roomDepth: Double = 8
    /// Width of the central corridor, metres.
    public var corridorWidth: Double = 2.4
    /// Height from one floor level to the next, metres.
    var floorHeight: Double = 3.5
    /// Beacons per floor, on room and corridor walls.
    public var beaconsPerFloor: Int = 14
    /// Mounting height of beacons above their floor, metres.
    var beaconHeight: Double = 2.2

    // People
    /// Walkers in `test/`.
    public var devices: Int = 4
    /// Length of the `test/` recording, seconds.
    public var duration: Double = 300
    /// Mean walking speed, metres per second.
    var walkingSpeed: Double = 1.2
    /// Shortest and longest pause in a room, seconds.
    var pause: ClosedRange<Double> = 10...60
    /// Height of a carried phone above the floor, metres.
    public var deviceHeight: Double = 1.2
    /// Seconds between truth rows.
    var truthInterval: Double = 1
    /// Seconds the survey walker stands at each survey point in `train/`.
    var surveyDwell: Double = 5

    // Radio
    /// Mean received power at 1 m, dBm (the beacons' measured power).
    public var rssiAtOneMeter: Double = -59
    /// Standard deviation of each beacon's power around ``rssiAtOneMeter``, dB.
    public var beaconPowerSigma: Double = 1.5
    /// Path-loss exponent n of the log-distance model.
    public var pathLossExponent: Double = 2.0
    /// Standard deviation σ of the log-normal shadowing, dB, drawn afresh for every packet.
    public var shadowingSigma: Double = 4
    /// Standard deviation of the slow shadowing of each beacon–device link, dB: a component that changes
    /// only as the device moves (bodies, furniture) and slowly with time, so that a device standing still
    /// keeps a bias for a while, as real phones do. 0 turns it off.
    public var slowShadowingSigma: Double = 2
    /// Metres a device moves for the slow shadowing to decorrelate by 1/e (Gudmundson's model).
    var slowShadowingDistance: Double = 3
    /// Seconds after which the slow shadowing of a still device decorrelates by 1/e (people moving around).
    var slowShadowingTime: Double = 20
    /// Loss per wall crossed by the straight line from beacon to device, dB.
    public var wallLoss: Double = 4
    /// Loss per floor between beacon and device, dB.
    public var floorLoss: Double = 15
    /// Standard deviation of each receiving device's fixed gain offset, dB.
    var deviceOffsetSigma: Double = 3
    /// Seconds between a beacon's advertisements (each also delayed by 0…10 ms, as BLE does).
    public var advertisingInterval: Double = 0.5
    /// Probability that a packet is not received, 0…1.
    public var packetLoss: Double = 0.1
    /// Weakest signal a device still receives, dBm.
    var sensitivity: Double = -100

    // Node-to-node links
    /// Whether the nodes also receive: each node hears the other nodes' advertisements, and `test/` holds those
    /// sightings as a walker's are written, their device `node:<id>` naming the node that heard and their node the
    /// node heard, so that an engine can calibrate itself from them (`NodeLinkCalibration`). The venue's nodes then
    /// carry no calibration (nobody measured their power; the radio still has it). Default `false`.
    public var nodeLinks = false
    /// Standard deviation of each node's fixed gain offset as a receiver, dB (with ``nodeLinks``).
    public var nodeOffsetSigma: Double = 3

    /// The defaults: a realistic one-floor office with four walkers for five minutes.
    public init() {}

    /// What is wrong with these options, one message per problem; empty when they are usable.
    public var problems: [String] {
        var problems: [String] = []
        if !(1...50).contains(floors) { problems.append("floors must be 1...50") }
        if !(1...200).contains(roomsPerSide) { problems.append("rooms per side must be 1...200") }
        if !(1...10_000).contains(beaconsPerFloor) { problems.append("beacons must be 1...10000 per floor") }
        if !(0...10_000).contains(devices) { problems.append("devices must be 0...10000") }
        if !(duration > 0 && duration <= 86_400) { problems.append("duration must be more than 0 and at most 86400 s") }
        if !(shadowingSigma >= 0 && shadowingSigma <= 30) { problems.append("sigma must be 0...30 dB") }
        if !(pathLossExponent > 0 && pathLossExponent <= 10) {
            problems.append("path-loss exponent must be in (0, 10]")
        }
        if !(advertisingInterval >= 0.02 && advertisingInterval <= 10.24) {
            problems.append("advertising interval must be 0.02...10.24 s")
        }
        if !(0...1).contains(packetLoss) || packetLoss == 1 { problems.append("packet loss must be in [0, 1)") }
        if !(walkingSpeed > 0.1 && walkingSpeed < 10) { problems.append("walking speed must be 0.1...10 m/s") }
        if !(truthInterval > 0) { problems.append("truth interval must be positive") }
        for (name, value) in [
            ("room width", roomWidth), ("room depth", roomDepth), ("corridor width", corridorWidth),
            ("floor height", floorHeight),
        ] where !(value >= 2 && value <= 100) {
            problems.append("\(name) must be 2...100 m")
        }
        if !(pause.lowerBound >= 0 && pause.upperBound.isFinite) { problems.append("pause must be finite and ≥ 0") }
        for (name, value) in [
            ("wall loss", wallLoss), ("floor loss", floorLoss), ("device offset sigma", deviceOffsetSigma),
            ("beacon power sigma", beaconPowerSigma), ("survey dwell", surveyDwell),
            ("slow shadowing sigma", slowShadowingSigma), ("node offset sigma", nodeOffsetSigma),
        ] where !(value >= 0 && value.isFinite) {
            problems.append("\(name) must be a finite number ≥ 0")
        }
        if !(slowShadowingDistance > 0 && slowShadowingTime > 0) {
            problems.append("slow shadowing distance and time must be positive")
        }
        if !(rssiAtOneMeter.isFinite && sensitivity.isFinite) { problems.append("dBm values must be finite") }
        return problems
    }
}
