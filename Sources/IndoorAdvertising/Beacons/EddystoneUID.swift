/// An Eddystone-UID frame: a 10-byte namespace, a 6-byte instance and the tx power at 0 m.
///
/// Layout after the service UUID: frame type `00`, tx power (int8 dBm at 0 m), namespace (10 bytes),
/// instance (6 bytes), and two reserved bytes that older beacons omit.
public struct EddystoneUID: Hashable, Sendable {
    /// The 10-byte namespace id, as a number: `high` holds bytes 0–1, `low` bytes 2–9 (big-endian).
    public struct Namespace: Hashable, Sendable, Comparable {
        /// Bytes 0–1 of the namespace.
        public var high: UInt16
        /// Bytes 2–9 of the namespace.
        public var low: UInt64

        /// A namespace from its first 2 and last 8 bytes (big-endian).
        public init(high: UInt16, low: UInt64) {
            self.high = high
            self.low = low
        }

        /// Parses 20 hex digits.
        public init?(hex: String) {
            guard hex.count == 20, let high = UInt16(hex.prefix(4), radix: 16),
                let low = UInt64(hex.suffix(16), radix: 16)
            else { return nil }
            self.init(high: high, low: low)
        }

        /// The 10 bytes, in order.
        public var bytes: [UInt8] {
            var bytes: [UInt8] = []
            bytes.appendU16BE(high)
            bytes.appendU64BE(low)
            return bytes
        }

        /// 20 lower-case hex digits.
        public var hex: String { hexString(bytes) }

        public static func < (lhs: Namespace, rhs: Namespace) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }
    }

    /// The 10-byte namespace id.
    public var namespace: Namespace
    /// The 6-byte instance id, as a number (big-endian; only the low 48 bits are used).
    public var instance: UInt64
    /// The calibrated transmit power at 0 m, dBm.
    public var txPowerAtZeroMeters: Int8

    /// A UID frame; `instance` keeps its low 48 bits; `txPowerAtZeroMetersDBm` is the calibrated power at 0 m, dBm.
    public init(namespace: Namespace, instance: UInt64, txPowerAtZeroMetersDBm: Int8) {
        self.namespace = namespace
        self.instance = instance & 0xFFFF_FFFF_FFFF
        self.txPowerAtZeroMeters = txPowerAtZeroMetersDBm
    }

    /// The expected received power at 1 m, dBm: tx power at 0 m − 41.
    public var powerAtOneMeter: Int { Int(txPowerAtZeroMeters) - Eddystone.lossAtOneMeter }

    /// 12 lower-case hex digits of the instance.
    public var instanceHex: String { hexString(instanceBytes) }

    var instanceBytes: [UInt8] { (0..<6).map { UInt8(truncatingIfNeeded: instance >> (8 * UInt64(5 - $0))) } }

    /// Decodes an Eddystone frame (frame type byte first); nil when it is not a UID frame.
    public init?(frame: [UInt8]) {
        guard let value = frame.withUnsafeBytes({ EddystoneUID.decode($0) }) else { return nil }
        self = value
    }

    @inline(__always)
    static func decode(_ frame: UnsafeRawBufferPointer) -> EddystoneUID? {
        guard frame.count >= 18, frame.count <= 20, frame[0] == Eddystone.uidFrame else { return nil }
        let low = frame.u64be(4)
        let instance = UInt64(frame.u16be(12)) << 32 | UInt64(frame.u32be(14))
        return EddystoneUID(
            namespace: Namespace(high: frame.u16be(2), low: low), instance: instance,
            txPowerAtZeroMetersDBm: frame.i8(1))
    }

    /// The 20 frame bytes (frame type first, reserved bytes zero).
    public var frame: [UInt8] {
        [Eddystone.uidFrame, UInt8(bitPattern: txPowerAtZeroMeters)] + namespace.bytes + instanceBytes + [0, 0]
    }

    /// Complete advertising data: flags, service UUID list and the service data: 31 bytes.
    public var advertisingData: [UInt8] { Eddystone.advertisingData(frame: frame) }
}
