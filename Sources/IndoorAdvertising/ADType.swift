/// AD types used by beacons (Bluetooth Assigned Numbers, "Common Data Types").
public enum ADType {
    public static let flags: UInt8 = 0x01
    public static let incompleteServiceUUIDs16: UInt8 = 0x02
    public static let completeServiceUUIDs16: UInt8 = 0x03
    public static let shortenedLocalName: UInt8 = 0x08
    public static let completeLocalName: UInt8 = 0x09
    public static let txPowerLevel: UInt8 = 0x0A
    public static let serviceData16: UInt8 = 0x16
    public static let manufacturerData: UInt8 = 0xFF
}
