import Foundation

/// The identity an iBeacon (or AltBeacon with a 16-byte first id) advertises: proximity UUID, major, minor.
///
/// The text form is `UUID/major/minor` with the UUID in upper-case canonical form and major and minor
/// in decimal, for example `E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/42`.
public struct BeaconID: Hashable, Sendable, Comparable {
    /// The proximity UUID (a beacon owner's or venue's id).
    public var uuid: UUID
    /// Major: usually a site or floor.
    public var major: UInt16
    /// Minor: usually one beacon.
    public var minor: UInt16

    /// An identity from its three parts.
    public init(uuid: UUID, major: UInt16, minor: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    /// Parses the text form `UUID/major/minor`.
    ///
    /// - Throws: ``FormatError`` naming the part that is wrong.
    public init(parsing text: String) throws {
        let parts = try BeaconText.parse(text, noun: "beacon identity", forms: "UUID/major/minor", partCounts: 3...3)
        self.init(uuid: parts.uuid, major: parts.major ?? 0, minor: parts.minor ?? 0)
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
    /// Reads the text form `UUID/major/minor` from a JSON string.
    public init(from decoder: any Decoder) throws {
        self = try BeaconText.decode(from: decoder, parse: BeaconID.init(parsing:))
    }

    /// Writes the text form as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        try BeaconText.encode(text, to: encoder)
    }
}
