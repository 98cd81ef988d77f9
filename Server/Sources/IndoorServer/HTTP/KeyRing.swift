import Crypto
import Foundation
import Synchronization

/// The keys the server accepts, held as SHA-256 hashes only.
///
/// A presented key is hashed and compared with every stored hash in constant time (no early exit on the first
/// differing byte, and every hash is compared), so neither the timing nor the logs tell anything about a key.
/// Keys are never logged: only their kind and label are.
public final class KeyRing: Sendable {
    private let hashes: Mutex<[(hash: [UInt8], kind: KeyKind)]>
    private let store: any LocationStore

    /// The keys of `store`.
    public init(store: any LocationStore) async throws {
        self.store = store
        hashes = Mutex(try await Self.stored(in: store))
    }

    /// Reads the stored keys again: those another server sharing the database added (a cluster's instances do this
    /// every round).
    public func reload() async throws {
        let stored = try await Self.stored(in: store)
        hashes.withLock { $0 = stored }
    }

    private static func stored(in store: any LocationStore) async throws -> [(hash: [UInt8], kind: KeyKind)] {
        try await store.keys().compactMap { key in Self.bytes(hex: key.hash).map { (hash: $0, kind: key.kind) } }
    }

    /// The lower-case hex SHA-256 of `key`'s UTF-8 bytes, as stored.
    public static func hash(_ key: String) -> String {
        SHA256.hash(data: Data(key.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// A new random key: 32 random bytes, base64url without padding, prefixed with its kind (`ik_admin_…`).
    public static func generate(kind: KeyKind) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let text = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return "ik_\(kind.rawValue)_\(text)"
    }

    /// Stores `key` (hashed) as a key of `kind`.
    public func add(_ key: String, kind: KeyKind, label: String) async throws {
        let hash = Self.hash(key)
        try await store.addKey(StoredKey(hash: hash, kind: kind, label: label))
        guard let bytes = Self.bytes(hex: hash) else { return }
        hashes.withLock { list in
            if !list.contains(where: { $0.hash == bytes }) { list.append((bytes, kind)) }
        }
    }

    /// Whether any key of `kind` is known.
    public func hasKey(of kind: KeyKind) -> Bool {
        hashes.withLock { list in list.contains { $0.kind == kind } }
    }

    /// The kind of `key`, or `nil` when it is not a known key.
    public func kind(of key: String) -> KeyKind? {
        let presented = Array(SHA256.hash(data: Data(key.utf8)))
        return hashes.withLock { list in
            var found: KeyKind?
            for entry in list {
                var difference: UInt8 = entry.hash.count == presented.count ? 0 : 1
                for (a, b) in zip(entry.hash, presented) { difference |= a ^ b }
                if difference == 0 && found == nil { found = entry.kind }
            }
            return found
        }
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
