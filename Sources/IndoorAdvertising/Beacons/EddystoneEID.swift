/// An Eddystone-EID frame: an ephemeral, opaque 8-byte id and the tx power at 0 m.
///
/// Layout after the service UUID: frame type `30`, tx power (int8 dBm at 0 m), the 8-byte EID.
public struct EddystoneEID: Hashable, Sendable {
    /// The ephemeral id, big-endian.
    public var eid: UInt64
    /// The calibrated transmit power at 0 m, dBm.
    public var txPowerAtZeroMeters: Int8

    /// An EID frame; `txPowerAtZeroMetersDBm` is the calibrated power at 0 m, dBm.
    public init(eid: UInt64, txPowerAtZeroMetersDBm: Int8) {
        self.eid = eid
        self.txPowerAtZeroMeters = txPowerAtZeroMetersDBm
    }

    /// The expected received power at 1 m, dBm: tx power at 0 m − 41.
    public var powerAtOneMeter: Int { Int(txPowerAtZeroMeters) - Eddystone.lossAtOneMeter }

    /// 16 lower-case hex digits.
    public var hex: String {
        var bytes: [UInt8] = []
        bytes.appendU64BE(eid)
        return hexString(bytes)
    }

    /// Decodes an Eddystone frame (frame type byte first); nil when it is not an EID frame.
    init?(frame: [UInt8]) {
        guard let value = frame.withUnsafeBytes({ EddystoneEID.decode($0) }) else { return nil }
        self = value
    }

    @inline(__always)
    static func decode(_ frame: UnsafeRawBufferPointer) -> EddystoneEID? {
        guard frame.count >= 10, frame[0] == Eddystone.eidFrame else { return nil }
        return EddystoneEID(eid: frame.u64be(2), txPowerAtZeroMetersDBm: frame.i8(1))
    }

    /// The 10 frame bytes (frame type first).
    public var frame: [UInt8] {
        var bytes: [UInt8] = [Eddystone.eidFrame, UInt8(bitPattern: txPowerAtZeroMeters)]
        bytes.appendU64BE(eid)
        return bytes
    }

    /// Complete advertising data: flags, service UUID list and the service data.
    public var advertisingData: [UInt8] { Eddystone.advertisingData(frame: frame) }
}
