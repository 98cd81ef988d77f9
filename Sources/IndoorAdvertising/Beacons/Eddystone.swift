/// Constants of Google's Eddystone format: frames are service data for the 16-bit service UUID 0xFEAA.
public enum Eddystone {
    /// The Eddystone service UUID (16-bit).
    public static let serviceUUID: UInt16 = 0xFEAA
    /// Frame type bytes.
    static let uidFrame: UInt8 = 0x00
    /// URL frame type.
    static let urlFrame: UInt8 = 0x10
    /// TLM (telemetry) frame type.
    static let tlmFrame: UInt8 = 0x20
    /// EID (ephemeral id) frame type.
    static let eidFrame: UInt8 = 0x30

    /// The signal loss over the first metre assumed by the specification, dB: power at 1 m = tx at 0 m − 41.
    static let lossAtOneMeter: Int = 41

    /// Advertising data for an Eddystone frame: flags, the complete list of 16-bit service UUIDs (0xFEAA)
    /// and the service data carrying `frame` (frame type byte first).
    static func advertisingData(frame: [UInt8]) -> [UInt8] {
        [
            0x02, ADType.flags, 0x06, 0x03, ADType.completeServiceUUIDs16, 0xAA, 0xFE,
            UInt8(frame.count + 3), ADType.serviceData16, 0xAA, 0xFE,
        ] + frame
    }
}
