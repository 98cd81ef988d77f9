import Foundation
import IndoorModel

/// An Apple iBeacon frame: proximity UUID, major, minor and measured power.
///
/// Carried as manufacturer data of exactly 25 bytes: company 0x004C (little-endian `4C 00`), type `02`,
/// length `15`, the 16-byte UUID, major and minor (big-endian) and the measured power (int8, dBm at 1 m).
public struct IBeacon: Hashable, Sendable {
    /// Apple's company identifier.
    public static let companyID: UInt16 = 0x004C

    /// The advertised identity.
    public var id: BeaconID
    /// The received power at 1 m the beacon was calibrated to, dBm.
    public var measuredPower: Int8

    /// An iBeacon frame; `measuredPowerDBm` is the received power at 1 m the beacon was calibrated to, dBm.
    public init(id: BeaconID, measuredPowerDBm: Int8) {
        self.id = id
        self.measuredPower = measuredPowerDBm
    }

    /// Decodes manufacturer data (company id first); nil when it is not an iBeacon.
    public init?(manufacturerData: [UInt8]) {
        guard let value = manufacturerData.withUnsafeBytes({ IBeacon.decode($0) }) else { return nil }
        self = value
    }

    @inline(__always)
    static func decode(_ data: UnsafeRawBufferPointer) -> IBeacon? {
        guard data.count == 25, data[0] == 0x4C, data[1] == 0x00, data[2] == 0x02, data[3] == 0x15 else { return nil }
        return IBeacon(
            id: BeaconID(uuid: uuid(data, at: 4), major: data.u16be(20), minor: data.u16be(22)),
            measuredPowerDBm: data.i8(24))
    }

    /// The 25 bytes of manufacturer data, company id first.
    public var manufacturerData: [UInt8] {
        var bytes: [UInt8] = [0x4C, 0x00, 0x02, 0x15]
        bytes.append(contentsOf: uuidBytes(id.uuid))
        bytes.appendU16BE(id.major)
        bytes.appendU16BE(id.minor)
        bytes.append(UInt8(bitPattern: measuredPower))
        return bytes
    }

    /// Complete advertising data (flags, then the manufacturer data): 30 bytes, as iBeacons send it.
    public var advertisingData: [UInt8] {
        [0x02, ADType.flags, 0x06, 26, ADType.manufacturerData] + manufacturerData
    }
}

/// A UUID from 16 bytes at `offset` (the caller has checked the bounds).
@inline(__always)
func uuid(_ data: UnsafeRawBufferPointer, at offset: Int) -> UUID {
    UUID(
        uuid: (
            data[offset], data[offset + 1], data[offset + 2], data[offset + 3],
            data[offset + 4], data[offset + 5], data[offset + 6], data[offset + 7],
            data[offset + 8], data[offset + 9], data[offset + 10], data[offset + 11],
            data[offset + 12], data[offset + 13], data[offset + 14], data[offset + 15]
        ))
}

/// The 16 bytes of a UUID, in order.
func uuidBytes(_ value: UUID) -> [UInt8] {
    let u = value.uuid
    return [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
}
