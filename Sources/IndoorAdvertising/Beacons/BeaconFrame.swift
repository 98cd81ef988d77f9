import Foundation
import IndoorModel

/// A beacon frame found in advertising data.
public enum BeaconFrame: Hashable, Sendable {
    case iBeacon(IBeacon)
    case altBeacon(AltBeacon)
    case eddystoneUID(EddystoneUID)
    case eddystoneURL(EddystoneURL)
    case eddystoneTLM(EddystoneTLM)
    case eddystoneEID(EddystoneEID)

    /// Finds the first beacon frame in advertising data.
    ///
    /// Recognised: manufacturer data holding an iBeacon (Apple, exactly 25 bytes `4C 00 02 15 …`) or an
    /// AltBeacon (26 bytes, `BE AC` after any company id), and Eddystone service data (UUID 0xFEAA) holding
    /// a UID, URL, plain TLM or EID frame. Other data is not a beacon frame.
    /// - Returns: The frame, or nil when the advertisement carries none.
    /// - Throws: ``AdvertisingError`` (`malformedAdvertisingData`) when an AD structure runs past the end:
    ///   the whole advertisement is then rejected.
    public static func decode(advertisingData: [UInt8]) throws -> BeaconFrame? {
        try advertisingData.withUnsafeBytes { try decode($0) }
    }

    /// The fast path of ``decode(advertisingData:)`` over borrowed bytes.
    @inline(__always)
    static func decode(_ advertisingData: UnsafeRawBufferPointer) throws -> BeaconFrame? {
        var found: BeaconFrame?
        try ADStructure.forEach(in: advertisingData) { type, data in
            guard found == nil else { return }
            if type == ADType.manufacturerData {
                if let frame = AltBeacon.decode(data) {
                    found = .altBeacon(frame)
                } else if let frame = IBeacon.decode(data) {
                    found = .iBeacon(frame)
                }
            } else if type == ADType.serviceData16, data.count >= 3, data[0] == 0xAA, data[1] == 0xFE {
                found = decodeEddystone(data.slice(2, data.count - 2))
            }
        }
        return found
    }

    static func decodeEddystone(_ frame: UnsafeRawBufferPointer) -> BeaconFrame? {
        switch frame[0] {
        case Eddystone.uidFrame: EddystoneUID.decode(frame).map(BeaconFrame.eddystoneUID)
        case Eddystone.urlFrame: EddystoneURL.decode(frame).map(BeaconFrame.eddystoneURL)
        case Eddystone.tlmFrame: EddystoneTLM.decode(frame).map(BeaconFrame.eddystoneTLM)
        case Eddystone.eidFrame: EddystoneEID.decode(frame).map(BeaconFrame.eddystoneEID)
        default: nil
        }
    }

    /// A short name of the frame kind: `ibeacon`, `altbeacon`, `eddystone-uid`, `eddystone-url`,
    /// `eddystone-tlm`, `eddystone-eid`.
    public var kind: String {
        switch self {
        case .iBeacon: "ibeacon"
        case .altBeacon: "altbeacon"
        case .eddystoneUID: "eddystone-uid"
        case .eddystoneURL: "eddystone-url"
        case .eddystoneTLM: "eddystone-tlm"
        case .eddystoneEID: "eddystone-eid"
        }
    }

    /// The identity the frame advertises, as a sighting source; nil for TLM, which carries none.
    ///
    /// iBeacon and AltBeacon read as a ``BeaconID`` (`UUID/major/minor`; AltBeacon `id1/id2/id3`).
    /// Eddystone identities are node ids: `eddystone-uid:<namespace hex>:<instance hex>`,
    /// `eddystone-eid:<16 hex digits>`, `eddystone-url:<url>` (commas written `%2C`).
    public var identity: SightingSource? {
        switch self {
        case .iBeacon(let frame): .beacon(frame.id)
        case .altBeacon(let frame): .beacon(frame.beaconID)
        case .eddystoneUID(let frame): .node("eddystone-uid:\(frame.namespace.hex):\(frame.instanceHex)")
        case .eddystoneURL(let frame):
            .node("eddystone-url:" + frame.url.replacingOccurrences(of: ",", with: "%2C"))
        case .eddystoneEID(let frame): .node("eddystone-eid:\(frame.hex)")
        case .eddystoneTLM: nil
        }
    }

    /// The expected received power at 1 m, dBm: iBeacon measured power, AltBeacon reference RSSI,
    /// Eddystone tx power at 0 m − 41; nil for TLM.
    public var powerAtOneMeter: Int? {
        switch self {
        case .iBeacon(let frame): Int(frame.measuredPower)
        case .altBeacon(let frame): Int(frame.referenceRSSI)
        case .eddystoneUID(let frame): frame.powerAtOneMeter
        case .eddystoneURL(let frame): frame.powerAtOneMeter
        case .eddystoneEID(let frame): frame.powerAtOneMeter
        case .eddystoneTLM: nil
        }
    }

    var isEddystone: Bool {
        switch self {
        case .iBeacon, .altBeacon: false
        default: true
        }
    }
}
