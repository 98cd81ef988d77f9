import Crypto
import IndoorAdvertising
import _CryptoExtras

/// A Bluetooth identity resolving key (IRK): the 16-byte AES-128 key with which a device makes and a bonded peer
/// resolves its resolvable private addresses (Core specification Vol 3 Part H §2.2.2, Vol 6 Part B §1.3.2.2).
///
/// ``bytes`` are the AES key, most significant byte first: the order of the specification's sample
/// (`ec0234a357c8ad05341010a60a397d9b`) and of ESPresense's `irk:` ids and settings. A macOS keychain and Theengs
/// Gateway's `identities` write the same key byte-reversed; ``reversed`` turns one order into the other, and
/// ``IRKResolver`` tries both.
public struct IdentityResolvingKey: Hashable, Sendable, CustomStringConvertible {
    /// The number of bytes of a key.
    public static let byteCount = 16

    /// The 16 key bytes, most significant first (the AES-128 key as written).
    public let bytes: [UInt8]
    /// The same bytes as the AES key.
    private let key: SymmetricKey

    /// A key from its 16 bytes, most significant first.
    ///
    /// - Throws: ``IdentityResolvingKeyError`` when there are not exactly 16 bytes.
    public init(bytes: [UInt8]) throws(IdentityResolvingKeyError) {
        guard bytes.count == Self.byteCount else {
            throw IdentityResolvingKeyError(
                device: nil, message: "an IRK is 16 bytes; \(bytes.count) bytes were given")
        }
        self.bytes = bytes
        self.key = SymmetricKey(data: bytes)
    }

    /// Parses a key written as 32 hex digits (either case), taken in the order written.
    ///
    /// Accepted: optional spaces around, an optional `irk:` prefix (any case, as in ESPresense's device ids),
    /// then exactly 32 hex digits with no separators. Base64 and other forms are refused.
    /// - Parameter device: The device the key belongs to, named in the error; nil for a key alone.
    /// - Throws: ``IdentityResolvingKeyError`` naming the device and the problem (length, a non-hex character).
    public init(hex text: String, device: String? = nil) throws(IdentityResolvingKeyError) {
        var digits = Substring(text).drop(while: { $0 == " " })
        while digits.last == " " { digits = digits.dropLast() }
        if digits.lowercased().hasPrefix("irk:") { digits = digits.dropFirst(4) }
        let subject = device.map { "IRK of device '\($0)'" } ?? "IRK"
        guard digits.utf8.count == 2 * Self.byteCount else {
            throw IdentityResolvingKeyError(
                device: device,
                message: "\(subject) has \(digits.utf8.count) characters; an IRK is 32 hex digits (16 bytes)")
        }
        switch Hex.decode(digits) {
        case .bytes(let bytes):
            try self.init(bytes: bytes)
        case .notHex(let offset), .oddLength(count: let offset):
            throw IdentityResolvingKeyError(
                device: device, message: "\(subject) has a character that is not a hex digit at offset \(offset)")
        }
    }

    /// The same key with its bytes in the other order (keychain / Theengs order ↔ specification / ESPresense order).
    public var reversed: IdentityResolvingKey {
        // 16 bytes reversed are 16 bytes: the initializer cannot refuse them; `self` is only a formal fallback.
        (try? IdentityResolvingKey(bytes: bytes.reversed())) ?? self
    }

    /// 32 lower-case hex digits, in the order of ``bytes``.
    public var hex: String { Hex.encode(bytes) }

    public var description: String { hex }

    /// The random address hash function `ah(k, r)`: AES-128 with this key of the block `13 zero bytes ‖ prand`,
    /// keeping the lowest 24 bits.
    ///
    /// - Parameter prand: The 24-bit random part of a resolvable private address (higher bits ignored).
    /// - Returns: The 24-bit hash; nil only if the AES primitive refuses the block, which a 16-byte key and block
    ///   never cause.
    public func ah(prand: UInt32) -> UInt32? {
        var block = [UInt8](repeating: 0, count: 16)
        block[13] = UInt8(truncatingIfNeeded: prand >> 16)
        block[14] = UInt8(truncatingIfNeeded: prand >> 8)
        block[15] = UInt8(truncatingIfNeeded: prand)
        do {
            try AES.permute(&block, key: key)
        } catch {
            return nil
        }
        return UInt32(block[13]) << 16 | UInt32(block[14]) << 8 | UInt32(block[15])
    }

    /// Whether `address` is a resolvable private address (top two bits `01`) made with this key.
    ///
    /// The address is `prand ‖ hash` most significant byte first; it resolves when `ah(key, prand) == hash`.
    public func resolves(_ address: BluetoothAddress) -> Bool {
        guard ResolvablePrivateAddress.isResolvable(address) else { return false }
        let prand = UInt32(truncatingIfNeeded: address.rawValue >> 24) & 0xFF_FFFF
        let hash = UInt32(truncatingIfNeeded: address.rawValue) & 0xFF_FFFF
        return ah(prand: prand) == hash
    }

    public static func == (lhs: IdentityResolvingKey, rhs: IdentityResolvingKey) -> Bool { lhs.bytes == rhs.bytes }

    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}
