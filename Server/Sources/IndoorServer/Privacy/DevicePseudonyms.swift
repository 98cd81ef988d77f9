import Crypto
import Foundation
import IndoorAdvertising
import IndoorModel
import Synchronization

/// What the server calls a device: the id a gateway derived from the radio (an address, an unresolved `irk:` id, a
/// beacon identity of a tag nobody enrolled) is replaced at ingest by a keyed hash, `anon-<16 hex digits>`, before
/// any session, table, stream, log line or topic sees it; ids the operator chose keep their names (docs/PRIVACY.md).
///
/// The rule, applied to each sighting's device id in this order:
/// 1. an id the names file enrolls (``names``: a raw id, an address in any case or separator) becomes its name;
/// 2. an enrolled name (``readable``: the IRK file's device names, the names file's names) and a node id of the venue
///    (node-to-node links) stay as they are;
/// 3. a gateway-derived id (``isGatewayDerived(_:)``) becomes ``pseudonym(_:)``, unless the ids are kept raw
///    (`indoor serve --raw-device-ids`);
/// 4. any other id (`phone-anna`, what the operator's own app posts) stays as it is.
///
/// The pseudonym is `anon-` and the first 16 hex digits of HMAC-SHA-256 over the id's UTF-8 bytes, keyed with a
/// 256-bit secret made once and kept in the store (``LocationStore/serverSecret(named:orNew:)``): the same id gives the
/// same pseudonym on every instance sharing the store and after a restart, and cannot be turned back into the id
/// without the secret (an address has only 48 bits: without the key it could be found by trying them all).
public final class DevicePseudonyms: Sendable {
    /// The HMAC key; `nil` keeps gateway-derived ids raw.
    private let key: SymmetricKey?
    /// Enrolled raw ids (addresses written ``BluetoothAddress/text``) → their readable names.
    public let names: [String: String]
    /// Names that are never replaced: the IRK file's devices and the names file's names.
    public let readable: Set<String>
    /// Pseudonyms made so far, by id (emptied when it reaches ``cacheCapacity``).
    private let cache = Mutex<[String: String]>([:])
    private static let cacheCapacity = 50_000

    /// The name of the store's secret.
    public static let secretName = "device-pseudonyms"

    /// Ids that stay as they are whatever they look like (`--raw-device-ids`), still renamed by `names`.
    public static func raw(names: [String: String] = [:], readable: Set<String> = []) -> DevicePseudonyms {
        DevicePseudonyms(key: nil, names: names, readable: readable)
    }

    /// Pseudonyms keyed with `secret` (at least 16 bytes; the store's is 32).
    public convenience init(secret: Data, names: [String: String] = [:], readable: Set<String> = []) {
        self.init(key: SymmetricKey(data: secret), names: names, readable: readable)
    }

    private init(key: SymmetricKey?, names: [String: String], readable: Set<String>) {
        self.key = key
        var normalised: [String: String] = [:]
        for (id, name) in names { normalised[Self.normalised(id)] = name }
        self.names = normalised
        self.readable = readable.union(names.values)
    }

    /// The pseudonyms `settings` ask for, keyed with the store's secret (made now, 256 random bits, when the store
    /// has none yet).
    /// - Throws: The store's error.
    public static func of(_ settings: DeviceIDSettings, store: any LocationStore) async throws -> DevicePseudonyms {
        if settings.raw { return .raw(names: settings.names, readable: settings.readable) }
        let candidate = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        let secret = try await store.serverSecret(named: secretName, orNew: candidate)
        return DevicePseudonyms(secret: secret, names: settings.names, readable: settings.readable)
    }

    /// Whether gateway-derived ids are replaced.
    public var isPseudonymous: Bool { key != nil }

    /// What the server calls the device a gateway reported as `id` (the type's rule); `nodes` are the venue's node ids.
    public func device(_ id: String, nodes: Set<String> = []) -> String {
        if !names.isEmpty, let name = names[Self.normalised(id)] { return name }
        guard key != nil, !readable.contains(id), !nodes.contains(id) else { return id }
        if let known = cache.withLock({ $0[id] }) { return known }
        return Self.isGatewayDerived(id) ? pseudonym(id) : id
    }

    /// `sightings` with each device id as ``device(_:nodes:)`` says.
    public func apply(_ sightings: [Sighting], nodes: Set<String>) -> [Sighting] {
        guard key != nil || !names.isEmpty else { return sightings }
        var result = sightings
        for index in result.indices {
            let id = result[index].device
            let device = self.device(id, nodes: nodes)
            if device != id { result[index].device = device }
        }
        return result
    }

    /// `anon-` and the first 16 hex digits of HMAC-SHA-256(secret, `id`); `id` itself without a secret.
    public func pseudonym(_ id: String) -> String {
        guard let key else { return id }
        if let known = cache.withLock({ $0[id] }) { return known }
        let code = HMAC<SHA256>.authenticationCode(for: Data(id.utf8), using: key)
        let hex = code.prefix(8).map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
        let pseudonym = "anon-" + hex
        cache.withLock { cache in
            if cache.count >= Self.cacheCapacity { cache.removeAll(keepingCapacity: true) }
            cache[id] = pseudonym
        }
        return pseudonym
    }

    /// How the audit log names `id`: `h-` and the first 16 hex digits of HMAC-SHA-256(secret, "audit:" + `id`) (of
    /// SHA-256 without a secret, with `--raw-device-ids`). Unlike ``pseudonym(_:)`` it is never a stored device id, so
    /// an erased device leaves no id of its own in the log, while the same id always gets the same name there.
    public func auditName(_ id: String) -> String {
        let message = Data(("audit:" + id).utf8)
        let digest: [UInt8] =
            if let key { Array(HMAC<SHA256>.authenticationCode(for: message, using: key)) } else {
                Array(SHA256.hash(data: message))
            }
        return "h-"
            + digest.prefix(8).map { byte in
                let text = String(byte, radix: 16)
                return byte < 16 ? "0" + text : text
            }.joined()
    }

    /// The ids the server may have stored for a device an operator names as `id`: `id` itself, and the name or
    /// pseudonym it would be given at ingest when that differs (for erasure and export: a person gives their phone's
    /// address; the server stored its pseudonym).
    public func storedIDs(for id: String) -> [String] {
        let stored = device(id)
        var ids = [id]
        if stored != id { ids.append(stored) }
        if key != nil, Self.isGatewayDerived(id) {
            let hashed = pseudonym(id)
            if !ids.contains(hashed) { ids.append(hashed) }
        }
        return ids
    }

    /// `text` (a log line) with every gateway-derived id in it (a topic's device segment, a Bluetooth address, an
    /// `irk:` id) replaced as ``device(_:nodes:)`` names it; as it is when ids are kept raw.
    public func scrub(_ text: String) -> String {
        guard key != nil else { return text }
        var result = text
        // Made for each call: a refusal is logged at most once every 10 s.
        let patterns = Self.scrubbed.compactMap { try? NSRegularExpression(pattern: $0) }
        for pattern in patterns {
            let range = NSRange(result.startIndex..., in: result)
            let matches = pattern.matches(in: result, range: range).reversed()
            for match in matches {
                guard let range = Range(match.range, in: result) else { continue }
                result.replaceSubrange(range, with: device(Self.gatewayForm(String(result[range]))))
            }
        }
        return result
    }

    /// The patterns ``scrub(_:)`` replaces: a gateway topic's device segment (ESPresense's `…/devices/<id>`,
    /// Theengs' `…/BTtoMQTT/<address>`), addresses with `:` or `-`, and `irk:` with 32 hex digits.
    private static let scrubbed = [
        #"(?<=/devices/)[^/\s']+"#,
        #"(?<=/BTtoMQTT/)[^/\s']+"#,
        #"(?<![0-9A-Fa-f:-])[0-9A-Fa-f]{2}([:-][0-9A-Fa-f]{2}){5}(?![0-9A-Fa-f:-])"#,
        #"irk:[0-9A-Fa-f]{32}"#,
    ]

    /// Prefixes of the ids ESPresense makes from an advertisement (besides `irk:` and `iBeacon:`, which the gateway
    /// reader rewrites): each names a radio, not a person's choice.
    static let generatedPrefixes = [
        "irk:", "known:", "apple:", "name:", "msft:", "sd:", "md:", "tile:", "exp:", "fp:", "flora:", "mifit:",
        "trackr:", "meater:", "vanmoof:", "smarttag:", "fitbit:", "miband:", "sonos:", "ad:", "altBeacon:",
        "iBeacon:", "eddy:", "eddystone-uid:", "eddystone-eid:", "eddystone-url:",
    ]

    /// Whether `id` is one a gateway derived from the radio: a Bluetooth address (`AA:BB:CC:DD:EE:FF`, dashes, or 12
    /// bare hex digits), an `irk:` id, a beacon identity (`UUID/major/minor`, Eddystone), a bare UUID (CoreBluetooth's
    /// id for a peripheral) or another id ESPresense makes from an advertisement (``generatedPrefixes``).
    public static func isGatewayDerived(_ id: String) -> Bool {
        // Each shape is tried only when the id could have it (its length, a `:` or a `/`): an id an app chose costs a
        // few comparisons per sighting.
        let utf8 = id.utf8
        if utf8.count == 17, BluetoothAddress(id) != nil { return true }
        if utf8.count == 12, utf8.allSatisfy(\.isHexDigit) { return true }
        if utf8.count == 36, UUID(uuidString: id) != nil { return true }
        if utf8.contains(UInt8(ascii: ":")), generatedPrefixes.contains(where: { id.hasPrefix($0) }) { return true }
        if utf8.contains(UInt8(ascii: "/")), (try? BeaconID(parsing: id)) != nil { return true }
        return false
    }

    /// `id` as the gateway readers hand it to the server: an address (12 bare hex digits too) as
    /// ``BluetoothAddress/text``.
    static func gatewayForm(_ id: String) -> String {
        if let address = BluetoothAddress(id) { return address.text }
        if id.utf8.count == 12, let value = UInt64(id, radix: 16) { return BluetoothAddress(rawValue: value).text }
        return id
    }

    /// An enrolled id as the names file and the lookup compare it: an address as ``BluetoothAddress/text``.
    static func normalised(_ id: String) -> String {
        BluetoothAddress(id)?.text ?? id
    }
}

extension UInt8 {
    /// Whether the byte is an ASCII hex digit.
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
