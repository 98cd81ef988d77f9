import Foundation
import IndoorModel

/// An AltBeacon frame (Radius Networks' open beacon format).
///
/// Carried as manufacturer data of 26 bytes: any company id (2 bytes, little-endian), beacon code `BE AC`,
/// a 20-byte beacon id (reported here as id1 of 16 bytes, id2 and id3 of 2 bytes each, big-endian),
/// the reference RSSI (int8, dBm at 1 m) and a reserved byte for the manufacturer.
public struct AltBeacon: Hashable, Sendable {
    /// The manufacturer's company id.
    public var companyID: UInt16
    /// The first 16 bytes of the beacon id, as a UUID.
    public var id1: UUID
    /// Bytes 16–17 of the beacon id.
    public var id2: UInt16
    /// Bytes 18–19 of the beacon id.
    public var id3: UInt16
    /// The average received power at 1 m, dBm.
    public var referenceRSSI: Int8
    /// The manufacturer's reserved byte.
    public var reserved: UInt8

    /// An AltBeacon frame; `referenceRSSIDBm` is the average received power at 1 m, dBm.
    public init(companyID: UInt16, id1: UUID, id2: UInt16, id3: UInt16, referenceRSSIDBm: Int8, reserved: UInt8 = 0) {
        self.companyID = companyID
        self.id1 = id1
        self.id2 = id2
        self.id3 = id3
        self.referenceRSSI = referenceRSSIDBm
        self.reserved = reserved
    }

    /// The beacon id read as `UUID/id2/id3`, the same shape as an iBeacon identity.
    public var beaconID: BeaconID { BeaconID(uuid: id1, major: id2, minor: id3) }

    /// Decodes manufacturer data (company id first); nil when it is not an AltBeacon.
    public init?(manufacturerData: [UInt8]) {
        guard let value = manufacturerData.withUnsafeBytes({ AltBeacon.decode($0) }) else { return nil }
        self = value
    }

    @inline(__always)
    static func decode(_ data: UnsafeRawBufferPointer) -> AltBeacon? {
        guard data.count == 26, data[2] == 0xBE, data[3] == 0xAC else { return nil }
        return AltBeacon(
            companyID: data.u16le(0), id1: uuid(data, at: 4), id2: data.u16be(20), id3: data.u16be(22),
            referenceRSSIDBm: data.i8(24), reserved: data[25])
    }

    /// The 26 bytes of manufacturer data, company id first.
    public var manufacturerData: [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendU16LE(companyID)
        bytes += [0xBE, 0xAC]
        bytes += uuidBytes(id1)
        bytes.appendU16BE(id2)
        bytes.appendU16BE(id3)
        bytes.append(UInt8(bitPattern: referenceRSSI))
        bytes.append(reserved)
        return bytes
    }

    /// Complete advertising data (flags, then the manufacturer data): 31 bytes.
    public var advertisingData: [UInt8] {
        [0x02, ADType.flags, 0x06, 27, ADType.manufacturerData] + manufacturerData
    }
}
