import IndoorAdvertising

/// The kinds of Bluetooth LE device address, told apart by the address type and the top two bits.
///
/// A public address comes from the IEEE registry. A random address is static (top bits `11`, fixed until power
/// cycle), resolvable private (top bits `01`, changes every few minutes, resolvable with the owner's IRK) or
/// non-resolvable private (top bits `00`, changes and cannot be followed). Top bits `10` are reserved.
public enum ResolvablePrivateAddress {
    /// Whether `address` has the form of a resolvable private address: its top two bits are `01`.
    ///
    /// Only meaningful for a random address; a public address may begin with the same bits.
    public static func isResolvable(_ address: BluetoothAddress) -> Bool { topBits(address) == 0b01 }

    /// Whether `address` has the form of a static random address: its top two bits are `11`.
    public static func isStatic(_ address: BluetoothAddress) -> Bool { topBits(address) == 0b11 }

    /// The two most significant bits of the 48-bit address.
    static func topBits(_ address: BluetoothAddress) -> UInt64 { (address.rawValue >> 46) & 0b11 }
}
