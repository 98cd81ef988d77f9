/// Why no position could be given.
public struct NoFix: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable kind of ``NoFix``; open to new codes.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as printed (for example `tooFewNodes`).
        public let name: String
        /// A code named `name`.
        package init(_ name: String) { self.name = name }
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

    /// What kind of failure.
    public var code: Code
    /// A sentence saying what was wrong with the input, for people.
    public var message: String

    /// A failure of kind `code` described by `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
