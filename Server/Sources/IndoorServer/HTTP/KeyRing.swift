import Crypto
import Foundation
import Synchronization

/// The keys the server accepts, held as SHA-256 hashes only, read again from the store at most
/// ``refreshSeconds`` after they were last read.
///
/// A presented key is hashed and compared with every stored hash in constant time (no early exit on the first
/// differing byte, and every hash is compared), so neither the timing nor the logs tell anything about a key.
/// Keys are never logged: only their id, kind and label are.
///
/// A key revoked or added on another instance sharing the store is refused or accepted here within
/// ``refreshSeconds``: the first request after that time reads the keys again (one read at a time; the others wait for
/// it). A key not found reads them again at once when they are older than ``missRefreshSeconds`` (so a key made on
/// another instance works here at once; refused keys are slowed by ``FailedKeyLimiter`` before they cost a read).
/// When a key is accepted, its last use is noted and written with the next read (to about a minute).
public final class KeyRing: Sendable {
    /// Seconds the keys read from the store are trusted before they are read again.
    public static let refreshSeconds: Double = 2
    /// Seconds the keys must have been held before a key not found among them reads them again.
    public static let missRefreshSeconds: Double = 0.25
    /// Seconds between two records of one key's last use.
    static let lastUseSeconds: Double = 60

    struct Entry: Sendable {
        var hash: [UInt8]
        var key: StoredKey
    }

    private struct State: Sendable {
        var entries: [Entry]
        var loaded: ContinuousClock.Instant
        var refreshing: Task<Void, Never>?
        /// Last uses not yet written, Unix seconds by key id.
        var used: [String: Double] = [:]
    }

    private let state: Mutex<State>
    private let store: any LocationStore
    private let refresh: Duration

    /// The keys of `store`, read again `refreshSeconds` after each read.
    public init(store: any LocationStore, refreshSeconds: Double = KeyRing.refreshSeconds) async throws {
        self.store = store
        refresh = .milliseconds(Int64(refreshSeconds * 1000))
        state = Mutex(State(entries: try await Self.stored(in: store), loaded: .now))
    }

    /// Writes the noted last uses and reads the stored keys again: those another server sharing the database added or
    /// revoked.
    public func reload() async throws {
        let used = state.withLock { state in
            defer { state.used = [:] }
            return state.used
        }
        try await store.touchKeys(used)
        let stored = try await Self.stored(in: store)
        state.withLock { state in
            state.entries = stored
            state.loaded = .now
        }
    }

    private static func stored(in store: any LocationStore) async throws -> [Entry] {
        try await store.keys().compactMap { key in Self.bytes(hex: key.hash).map { Entry(hash: $0, key: key) } }
    }

    /// The entries, read again first when they are older than `maxAge` (the refresh time by default; one read at a
    /// time). A read that fails keeps the entries read before, and is tried again after the refresh time.
    private func current(maxAge: Duration? = nil) async -> [Entry] {
        let refresh = maxAge ?? refresh
        let (entries, pending) = state.withLock { state -> ([Entry], Task<Void, Never>?) in
            if let task = state.refreshing { return (state.entries, task) }
            guard ContinuousClock.now - state.loaded >= refresh else { return (state.entries, nil) }
            let task = Task {
                try? await self.reload()
                self.state.withLock { state in
                    state.loaded = .now
                    state.refreshing = nil
                }
            }
            state.refreshing = task
            return (state.entries, task)
        }
        guard let pending else { return entries }
        await pending.value
        return state.withLock { $0.entries }
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

    /// Stores `key` (hashed) as a key of `kind`, unless it is stored already.
    /// - Parameters:
    ///   - origin: Who made it (an operator's key is retired at a start that does not give it again).
    ///   - expires: When it stops being accepted, Unix seconds; `nil`: never.
    ///   - venues: The venues it is limited to; `nil`: every venue.
    /// - Returns: The key as stored (the one stored before, when its hash was).
    @discardableResult
    public func add(
        _ key: String, kind: KeyKind, label: String, origin: KeyOrigin = .api, expires: Double? = nil,
        venues: [String]? = nil
    ) async throws -> StoredKey {
        let hash = Self.hash(key)
        try await store.addKey(
            StoredKey(hash: hash, kind: kind, label: label, origin: origin, expires: expires, venues: venues))
        try await reload()
        return state.withLock { state in state.entries.first { $0.key.hash == hash }?.key }
            ?? StoredKey(hash: hash, kind: kind, label: label, origin: origin, expires: expires, venues: venues)
    }

    /// Stores the operator's keys of this start (``KeyOrigin/operator``) and deletes every operator key not among
    /// them (given at an earlier start only).
    /// - Returns: The ids of the keys retired.
    @discardableResult
    public func setOperatorKeys(_ keys: [(key: String, kind: KeyKind, label: String)]) async throws -> [String] {
        for key in keys {
            try await store.addKey(
                StoredKey(hash: Self.hash(key.key), kind: key.kind, label: key.label, origin: .operator))
        }
        let retired = try await store.retireOperatorKeys(keeping: Set(keys.map { Self.hash($0.key) }))
        try await reload()
        return retired
    }

    /// The stored keys, oldest first, read from the store now.
    public func list() async throws -> [StoredKey] {
        try await reload()
        return state.withLock { state in state.entries.map(\.key) }
    }

    /// Deletes the key with id `id`: refused here at once, and on other instances sharing the store within
    /// ``refreshSeconds``.
    /// - Returns: `true` when there was such a key.
    public func revoke(id: String) async throws -> Bool {
        let revoked = try await store.revokeKey(id: id)
        state.withLock { state in state.entries.removeAll { $0.key.id == id } }
        return revoked
    }

    /// Whether any key of `kind` is known (expired ones too).
    public func hasKey(of kind: KeyKind) -> Bool {
        state.withLock { state in state.entries.contains { $0.key.kind == kind } }
    }

    /// The stored key `key` is, when it is known and has not expired (its last use is noted); `nil` otherwise.
    public func authenticate(_ key: String) async -> StoredKey? {
        let presented = Array(SHA256.hash(data: Data(key.utf8)))
        var found = Self.find(presented, in: await current())
        if found == nil {
            // Perhaps made on another instance since the keys were read.
            found = Self.find(
                presented, in: await current(maxAge: .milliseconds(Int64(Self.missRefreshSeconds * 1000))))
        }
        let now = Date().timeIntervalSince1970
        guard let found, !found.isExpired(at: now) else { return nil }
        if now - (found.lastUsed ?? 0) >= Self.lastUseSeconds {
            state.withLock { state in
                if state.used[found.id] == nil { state.used[found.id] = now }
            }
        }
        return found
    }

    /// The entry whose hash is `presented`, compared with every entry in constant time.
    private static func find(_ presented: [UInt8], in entries: [Entry]) -> StoredKey? {
        var found: StoredKey?
        for entry in entries {
            var difference: UInt8 = entry.hash.count == presented.count ? 0 : 1
            for (a, b) in zip(entry.hash, presented) { difference |= a ^ b }
            if difference == 0 && found == nil { found = entry.key }
        }
        return found
    }

    /// The kind of `key`, or `nil` when it is not a known key or has expired.
    public func kind(of key: String) async -> KeyKind? {
        await authenticate(key)?.kind
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
