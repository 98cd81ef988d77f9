import Foundation

/// A condition on beacon identity with wildcards: a UUID alone, a UUID and major, or all three.
///
/// The text form leaves the wildcard parts out: `UUID`, `UUID/major` or `UUID/major/minor`.
public struct BeaconCondition: Hashable, Sendable {
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
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else {
            throw FormatError(
                code: .invalidValue, message: "beacon condition '\(text)' is not UUID, UUID/major or UUID/major/minor")
        }
        guard let uuid = UUID(uuidString: String(parts[0])) else {
            throw FormatError(code: .invalidValue, message: "beacon condition '\(text)': '\(parts[0])' is not a UUID")
        }
        guard parts.count > 1 else {
            self.init(uuid: uuid)
            return
        }
        guard let major = UInt16(parts[1]) else {
            throw FormatError(
                code: .invalidValue,
                message: "beacon condition '\(text)': major '\(parts[1])' is not an integer in 0...65535")
        }
        guard parts.count > 2 else {
            self.init(uuid: uuid, major: major)
            return
        }
        guard let minor = UInt16(parts[2]) else {
            throw FormatError(
                code: .invalidValue,
                message: "beacon condition '\(text)': minor '\(parts[2])' is not an integer in 0...65535")
        }
        self.init(uuid: uuid, major: major, minor: minor)
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
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch let error as FormatError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
