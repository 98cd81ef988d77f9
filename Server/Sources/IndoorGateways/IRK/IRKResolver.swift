import IndoorAdvertising
import Synchronization

/// Resolves Bluetooth resolvable private addresses to device names with a table of identity resolving keys.
///
/// Each key is tried in both byte orders — as written (ESPresense's and the specification's order) and reversed
/// (the order a macOS keychain shows and Theengs Gateway expects) — so a user need not know which one a tool gave.
/// Devices are tried in name order; the first key that resolves an address names it.
///
/// Answers, misses included, are cached per address, so a busy venue does not run one AES block per key per
/// packet. The cache holds at most `cacheCapacity` addresses and is emptied when full (rotating addresses make old
/// entries useless anyway). Safe to share between tasks.
public final class IRKResolver: Sendable {
    /// The default number of addresses remembered.
    public static let defaultCacheCapacity = 10_000

    /// One device and one byte order of its key.
    private struct Candidate: Sendable {
        var device: String
        var key: IdentityResolvingKey
    }

    /// Both byte orders of every device's key, in device name order.
    private let candidates: [Candidate]
    /// Remembered answers: address value → device name, or nil for an address no key resolves.
    private let cache: Mutex<[UInt64: String?]>
    /// The most entries ``cache`` holds before it is emptied.
    private let cacheCapacity: Int

    /// A resolver for `keys`: device name → key as 32 hex digits (see ``IdentityResolvingKey/init(hex:device:)``).
    ///
    /// - Parameter cacheCapacity: The most addresses remembered (at least 1).
    /// - Throws: ``IdentityResolvingKeyError`` naming the first device (in name order) whose key cannot be read,
    ///   or whose name is empty.
    public convenience init(
        keys: [String: String], cacheCapacity: Int = IRKResolver.defaultCacheCapacity
    ) throws(IdentityResolvingKeyError) {
        var parsed: [String: IdentityResolvingKey] = [:]
        for (device, text) in keys.sorted(by: { $0.key < $1.key }) {
            guard !device.isEmpty else {
                throw IdentityResolvingKeyError(device: device, message: "an IRK is given for an empty device name")
            }
            parsed[device] = try IdentityResolvingKey(hex: text, device: device)
        }
        self.init(identities: parsed, cacheCapacity: cacheCapacity)
    }

    /// A resolver for parsed keys: device name → key in either byte order.
    ///
    /// - Parameter cacheCapacity: The most addresses remembered (values below 1 count as 1).
    public init(identities: [String: IdentityResolvingKey], cacheCapacity: Int = IRKResolver.defaultCacheCapacity) {
        var candidates: [Candidate] = []
        for (device, key) in identities.sorted(by: { $0.key < $1.key }) {
            candidates.append(Candidate(device: device, key: key))
            let reversed = key.reversed
            if reversed != key { candidates.append(Candidate(device: device, key: reversed)) }
        }
        self.candidates = candidates
        self.cacheCapacity = max(1, cacheCapacity)
        self.cache = Mutex([:])
    }

    /// Whether the resolver has no key at all.
    public var isEmpty: Bool { candidates.isEmpty }

    /// The number of addresses remembered now (at most the capacity).
    public var cachedAddressCount: Int { cache.withLock { $0.count } }

    /// The device whose key, in either byte order, is `key`; nil when no device has it.
    ///
    /// For ESPresense ids `irk:<32 hex digits>`, which name the key rather than the device.
    public func device(forKey key: IdentityResolvingKey) -> String? {
        candidates.first(where: { $0.key == key })?.device
    }

    /// The device whose key resolves `address`, or nil.
    ///
    /// An address whose top two bits are not `01` is not a resolvable private address and is never resolved (nor
    /// cached). The caller decides whether the address is random at all: a public address is never passed here.
    public func resolve(_ address: BluetoothAddress) -> String? {
        guard ResolvablePrivateAddress.isResolvable(address), !candidates.isEmpty else { return nil }
        let value = address.rawValue
        if let cached = cache.withLock({ $0[value] }) { return cached }
        let device = candidates.first(where: { $0.key.resolves(address) })?.device
        cache.withLock { entries in
            if entries.count >= cacheCapacity { entries.removeAll(keepingCapacity: true) }
            entries[value] = .some(device)
        }
        return device
    }

    /// The device whose key resolves the address written `AA:BB:CC:DD:EE:FF` (colons or dashes, either case);
    /// nil when no key does or the text is not an address.
    public func resolve(address text: String) -> String? {
        guard let address = BluetoothAddress(text) else { return nil }
        return resolve(address)
    }

    /// The device whose key resolves the address given as 6 bytes, most significant first (the text order);
    /// nil when no key does or there are not 6 bytes.
    public func resolve(addressBytes bytes: [UInt8]) -> String? {
        guard bytes.count == 6 else { return nil }
        return resolve(BluetoothAddress(rawValue: bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }))
    }
}
