import Foundation

/// A condition on beacon identity with wildcards: a UUID alone, a UUID and major, or all three.
///
/// The text form leaves the wildcard parts out: `UUID`, `UUID/major` or `UUID/major/minor`.
public struct BeaconCondition: Hashable, Sendable {
    /// The proximity UUID a beacon must have.
    public var uuid: UUID
    /// `nil` matches any major (and then ``minor`` is `nil` too).
    public var major: UInt16?
    /// `nil` matches any minor.
    public var minor: UInt16?

    /// A condition matching every beacon with `uuid`.
    public init(uuid: UUID) {
        self.uuid = uuid
        self.major = nil
        self.minor = nil
    }

    /// A condition matching every beacon with `uuid` and `major`.
    public init(uuid: UUID, major: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = nil
    }

    /// A condition matching exactly one beacon identity.
    public init(uuid: UUID, major: UInt16, minor: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    /// A condition matching exactly `beacon`.
    public init(_ beacon: BeaconID) {
        self.init(uuid: beacon.uuid, major: beacon.major, minor: beacon.minor)
    }

    /// Parses `UUID`, `UUID/major` or `UUID/major/minor`.
    ///
    /// - Throws: ``FormatError`` naming the part that is wrong.
    public init(parsing text: String) throws {
        let parts = try BeaconText.parse(
            text, noun: "beacon condition", forms: "UUID, UUID/major or UUID/major/minor", partCounts: 1...3)
        self.uuid = parts.uuid
        self.major = parts.major
        self.minor = parts.minor
    }

    /// Whether `beacon` satisfies this condition.
    public func matches(_ beacon: BeaconID) -> Bool {
        guard beacon.uuid == uuid else { return false }
        if let major, beacon.major != major { return false }
        if let minor, beacon.minor != minor { return false }
        return true
    }

    /// The text form: `UUID`, `UUID/major` or `UUID/major/minor`.
    public var text: String {
        var text = uuid.uuidString
        if let major { text += "/\(major)" }
        if let minor { text += "/\(minor)" }
        return text
    }
}

extension BeaconCondition: CustomStringConvertible {
    public var description: String { text }
}

extension BeaconCondition: Codable {
    /// Reads the text form `UUID`, `UUID/major` or `UUID/major/minor` from a JSON string.
    public init(from decoder: any Decoder) throws {
        self = try BeaconText.decode(from: decoder, parse: BeaconCondition.init(parsing:))
    }

    /// Writes the text form as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        try BeaconText.encode(text, to: encoder)
    }
}
