/// AD types used by beacons (Bluetooth Assigned Numbers, "Common Data Types").
public enum ADType {
    /// Flags (LE discoverable mode, BR/EDR support).
    public static let flags: UInt8 = 0x01
    /// Incomplete list of 16-bit service UUIDs.
    static let incompleteServiceUUIDs16: UInt8 = 0x02
    /// Complete list of 16-bit service UUIDs (Eddystone lists 0xFEAA here).
    static let completeServiceUUIDs16: UInt8 = 0x03
    /// Shortened local name.
    static let shortenedLocalName: UInt8 = 0x08
    /// Complete local name.
    static let completeLocalName: UInt8 = 0x09
    /// Tx power level, int8 dBm.
    static let txPowerLevel: UInt8 = 0x0A
    /// Service data for a 16-bit service UUID (little-endian UUID first); carries Eddystone frames.
    public static let serviceData16: UInt8 = 0x16
    /// Manufacturer specific data (little-endian company id first); carries iBeacon and AltBeacon.
    public static let manufacturerData: UInt8 = 0xFF
}
