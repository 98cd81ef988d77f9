import Foundation

/// The identity an iBeacon (or AltBeacon with a 16-byte first id) advertises: proximity UUID, major, minor.
///
/// The text form is `UUID/major/minor` with the UUID in upper-case canonical form and major and minor
/// in decimal, for example `E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/42`.
public struct BeaconID: Hashable, Sendable, Comparable {
    public var uuid: UUID
    public var major: UInt16
    public var minor: UInt16

    public init(uuid: UUID, major: UInt16, minor: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    /// Parses the text form `UUID/major/minor`.
    ///
    /// - Throws: ``FormatError`` naming the part that is wrong.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw FormatError(
                code: .invalidValue,
                message: "beacon identity '\(text)' is not UUID/major/minor")
        }
        guard let uuid = UUID(uuidString: String(parts[0])) else {
            throw FormatError(code: .invalidValue, message: "beacon identity '\(text)': '\(parts[0])' is not a UUID")
        }
        guard let major = UInt16(parts[1]) else {
            throw FormatError(
                code: .invalidValue,
                message: "beacon identity '\(text)': major '\(parts[1])' is not an integer in 0...65535")
        }
        guard let minor = UInt16(parts[2]) else {
            throw FormatError(
                code: .invalidValue,
                message: "beacon identity '\(text)': minor '\(parts[2])' is not an integer in 0...65535")
        }
        self.init(uuid: uuid, major: major, minor: minor)
    }

    /// The text form `UUID/major/minor`.
    public var text: String { "\(uuid.uuidString)/\(major)/\(minor)" }

    public static func < (lhs: BeaconID, rhs: BeaconID) -> Bool {
        (lhs.uuid.uuidString, lhs.major, lhs.minor) < (rhs.uuid.uuidString, rhs.major, rhs.minor)
    }
}

extension BeaconID: CustomStringConvertible {
    public var description: String { text }
}

extension BeaconID: Codable {
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
