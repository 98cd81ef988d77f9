import IndoorModel

/// What the engine knows about one node for one device when it asks a method for a position.
public struct NodeReading: Hashable, Sendable {
    public var node: Node
    /// Filtered received signal strength, dBm.
    public var rssi: Double
    /// Estimated distance from the node, metres (from the node's calibration and the distance model).
    public var distance: Double
    /// Variance of ``distance``, square metres.
    public var distanceVariance: Double
    /// When the node was last heard, seconds.
    public var lastHeard: Double

    public init(node: Node, rssi: Double, distance: Double, distanceVariance: Double, lastHeard: Double) {
        self.node = node
        self.rssi = rssi
        self.distance = distance
        self.distanceVariance = distanceVariance
        self.lastHeard = lastHeard
    }
}

/// A method's answer: a position with its uncertainty.
public struct Estimate: Hashable, Sendable {
    /// Metres in the venue's local frame.
    public var position: Point3D
    public var floor: Int?
    /// Radius in metres within which the device likely is.
    public var accuracy: Double
    /// 0 … 1.
    public var confidence: Double

    public init(position: Point3D, floor: Int? = nil, accuracy: Double, confidence: Double) {
        self.position = position
        self.floor = floor
        self.accuracy = accuracy
        self.confidence = confidence
    }
}

/// Why no position could be given.
public struct NoFix: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The device has not been heard (recently enough) by any known node.
        public static let notHeard = Code("notHeard")
        /// Too few nodes for this method.
        public static let tooFewNodes = Code("tooFewNodes")
        /// The nodes' geometry cannot fix a position (for example, all on one line).
        public static let degenerateGeometry = Code("degenerateGeometry")
        /// The solver did not reach a finite answer.
        public static let noSolution = Code("noSolution")
        /// A reading had a non-finite or negative RSSI, distance or node position.
        public static let invalidInput = Code("invalidInput")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}

/// A way of turning the current node readings of one device into a position.
///
/// Implement this to plug your own method into the engine, `indoor evaluate` and blends.
public protocol PositioningMethod: Sendable {
    /// The name used on the command line and in reports, for example `weighted-centroid`.
    var name: String { get }
    /// The position for `readings`, which are sorted strongest RSSI first and never empty.
    func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix>
}
