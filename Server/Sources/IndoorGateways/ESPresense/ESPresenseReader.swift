import Foundation
import IndoorAdvertising
import IndoorModel

/// Reads ESPresense's messages under its root topic (firmware 4.x; older fields are not required).
///
/// A device message `<root>/devices/<device>/<node>` carries `rssi` (a number, or a string holding one: the
/// firmware writes it as text with two decimals) and optionally `rssi@1m` (the calibrated power at 1 m, dBm);
/// `id`, `mac`, `name`, `distance` and the rest are not used. The device is the `<device>` topic segment, the
/// id ESPresense chose, with three rewrites so that the same advertiser gets the same id whichever gateway heard
/// it:
/// - `iBeacon:<uuid>-<major>-<minor>` becomes Indoor's beacon identity `UUID/major/minor` (upper-case UUID), as
///   `indoor decode` and ``TheengsReader`` name it;
/// - a bare address, 12 hex digits (`aabbccddeeff`), becomes `AA:BB:CC:DD:EE:FF`, as ``TheengsReader`` names it;
/// - `irk:<32 hex digits>` becomes the name of the device whose key it is in the ``IRKResolver`` (either byte
///   order), and stays as it is when no key matches.
/// Every other id (`known:…`, `apple:…`, `name:…`, aliases) is kept as it is.
struct ESPresenseReader {
    /// The full topic, for messages.
    var topic: String
    /// The keys that name `irk:` ids, if any.
    var resolver: IRKResolver?

    /// What the message at `path` (the topic's segments after the root) means.
    func read(path: [String], payload: [UInt8]) throws(GatewayPayloadError) -> GatewayMessage {
        switch (path.first, path.count) {
        case ("devices", 3):
            let node = try GatewayID.checked(path[2], "node", topic: topic, field: nil)
            let device = try deviceID(path[1])
            let fields = try PayloadFields(topic: topic, payload: payload)
            let rssi = try fields.rssi("rssi")
            let txPower = try fields.txPower("rssi@1m")
            return .sighting(
                GatewaySighting(gateway: .espresense, node: node, device: device, rssiDBm: rssi, txPowerDBm: txPower))
        case ("devices", 4...):
            return .ignored(reason: "an ESPresense GATT report (devices/<device>/<node>/<report>)")
        case ("devices", _):
            return .ignored(reason: "an ESPresense device topic without a node segment")
        case ("rooms", 3) where path[2] == "status":
            let node = try GatewayID.checked(path[1], "node", topic: topic, field: nil)
            return .nodeStatus(node: node, online: try online(payload))
        case ("rooms", 3) where path[2] == "telemetry":
            let node = try GatewayID.checked(path[1], "node", topic: topic, field: nil)
            let fields = try PayloadFields(topic: topic, payload: payload)
            return .nodeTelemetry(node: node, telemetry: telemetry(fields))
        case ("rooms", _):
            return .ignored(reason: "an ESPresense room setting or sensor")
        default:
            return .ignored(reason: "an ESPresense topic that carries no sighting")
        }
    }

    /// `online` → true, `offline` → false (spaces around tolerated).
    ///
    /// - Throws: `outOfRange` for any other payload.
    func online(_ payload: [UInt8]) throws(GatewayPayloadError) -> Bool {
        let text = String(decoding: payload, as: UTF8.self).trimmingSpaces
        switch text {
        case "online": return true
        case "offline": return false
        default:
            throw GatewayPayloadError(
                .outOfRange, topic: topic, field: nil,
                detail: "the status is '\(text.prefix(40))'; expected 'online' or 'offline'")
        }
    }

    /// The telemetry fields this project keeps; a field of another type reads as absent.
    func telemetry(_ fields: PayloadFields) -> GatewayNodeTelemetry {
        func number(_ field: String) -> Double? {
            guard case .number(let value) = fields.object[field], value.isFinite else { return nil }
            return value
        }
        func text(_ field: String) -> String? {
            guard case .string(let value) = fields.object[field] else { return nil }
            return value
        }
        func count(_ field: String) -> Int? { number(field).flatMap { Int(exactly: $0) } }
        return GatewayNodeTelemetry(
            ipAddress: text("ip"), uptimeSeconds: number("uptime"), firmware: text("firm"), version: text("ver"),
            wifiRSSIDBm: number("rssi"), advertisementCount: count("adverts"), seenCount: count("seen"),
            reportedCount: count("reported"))
    }

    /// The Indoor device id for ESPresense's id `id` (see the type's documentation).
    func deviceID(_ id: String) throws(GatewayPayloadError) -> String {
        let checked = try GatewayID.checked(id, "device", topic: topic, field: nil)
        if checked.hasPrefix("iBeacon:"), let beacon = Self.beacon(checked.dropFirst("iBeacon:".count)) {
            return beacon.text
        }
        if checked.hasPrefix("irk:") {
            if let key = try? IdentityResolvingKey(hex: checked), let device = resolver?.device(forKey: key) {
                return device
            }
            return checked
        }
        if checked.utf8.count == 12, case .bytes(let bytes) = Hex.decode(checked) {
            return BluetoothAddress(rawValue: bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }).text
        }
        return checked
    }

    /// The beacon identity in `<uuid>-<major>-<minor>` (the UUID with its own dashes), or nil.
    static func beacon(_ text: Substring) -> BeaconID? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 7, let major = UInt16(parts[5]), let minor = UInt16(parts[6]),
            let uuid = UUID(uuidString: parts[0..<5].joined(separator: "-"))
        else { return nil }
        return BeaconID(uuid: uuid, major: major, minor: minor)
    }
}
