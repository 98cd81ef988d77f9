import IndoorModel

/// How peers name each other: the major and minor a phone advertises, written `major/minor` (`172/8376`).
public struct PeerKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var major: UInt16
    public var minor: UInt16

    public init(major: UInt16, minor: UInt16) {
        self.major = major
        self.minor = minor
    }

    /// The key of a beacon identity (its UUID is the app's, shared by every peer).
    public init(_ beacon: BeaconID) {
        self.init(major: beacon.major, minor: beacon.minor)
    }

    /// Parses `major/minor`.
    /// - Throws: ``FormatError`` naming the part that is wrong.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw FormatError(code: .invalidValue, message: "peer key '\(text)' is not major/minor")
        }
        guard let major = UInt16(parts[0]) else {
            throw FormatError(
                code: .invalidValue, message: "peer key '\(text)': major '\(parts[0])' is not an integer in 0...65535")
        }
        guard let minor = UInt16(parts[1]) else {
            throw FormatError(
                code: .invalidValue, message: "peer key '\(text)': minor '\(parts[1])' is not an integer in 0...65535")
        }
        self.init(major: major, minor: minor)
    }

    /// The text form `major/minor`.
    public var text: String { "\(major)/\(minor)" }
    public var description: String { text }

    public static func < (lhs: PeerKey, rhs: PeerKey) -> Bool { (lhs.major, lhs.minor) < (rhs.major, rhs.minor) }
}
