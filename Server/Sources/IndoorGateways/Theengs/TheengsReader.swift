import Foundation
import IndoorAdvertising
import IndoorModel

/// Reads a `BTtoMQTT` message of Theengs Gateway or OpenMQTTGateway: `id` (the address), `rssi` (dBm), and
/// optionally `txpower` (dBm), `mac_type` (OpenMQTTGateway: `0` public, `1` random, `2`/`3` their identity
/// forms), raw `manufacturerdata` (hex, company id first, little-endian) or `servicedata` + `servicedatauuid`
/// (hex; Eddystone is `feaa`), and Theengs' decoded iBeacon fields `uuid` (32 hex digits), `major`, `minor`.
///
/// The device is, in this order:
/// 1. the beacon identity when the advertisement is a beacon, named as `indoor decode` names it
///    (``BeaconFrame/identity``: `UUID/major/minor` for iBeacon and AltBeacon, `eddystone-uid:<ns>:<instance>`,
///    …): raw data first, then the decoded `uuid`/`major`/`minor` (all three present);
/// 2. for an `id` that is not an address (Theengs on macOS reports CoreBluetooth UUIDs), `id` as it is;
/// 3. for an address: see ``device(address:type:)``.
///
/// The tx power is the decoded beacon frame's power at 1 m when there is one, else `txpower` as the gateway
/// states it.
struct TheengsReader {
    /// The full topic, for messages.
    var topic: String
    /// The keys that resolve private addresses, if any.
    var resolver: IRKResolver?

    /// The address type a message states.
    enum AddressType: Equatable {
        case `public`
        case random
        /// The message does not say (Theengs Gateway never does).
        case unknown
    }

    /// The sighting in `payload`, heard by `gateway`.
    func read(gateway: String, payload: [UInt8]) throws(GatewayPayloadError) -> GatewayMessage {
        let node = try GatewayID.checked(gateway, "node", topic: topic, field: nil)
        let fields = try PayloadFields(topic: topic, payload: payload)
        let id = try fields.requiredString("id")
        let rssi = try fields.rssi("rssi")
        let statedTxPower = try fields.txPower("txpower")
        let type = try addressType(fields)
        let device: String
        var txPower = statedTxPower
        if let frame = try beaconFrame(fields), let identity = frame.identity {
            device = identity.text
            txPower = frame.powerAtOneMeter.map(Double.init) ?? statedTxPower
        } else if let beacon = try decodedBeacon(fields) {
            device = beacon.text
        } else if let address = BluetoothAddress(id) {
            device = try self.device(address: address, type: type)
        } else {
            device = try GatewayID.checked(id, "device", topic: topic, field: "id")
        }
        return .sighting(
            GatewaySighting(gateway: .theengs, node: node, device: device, rssiDBm: rssi, txPowerDBm: txPower))
    }

    /// The device id for an advertiser known only by its address.
    ///
    /// - A public address (type `0`/`2`), or a static random one (random type, top bits `11`): the address,
    ///   `AA:BB:CC:DD:EE:FF`.
    /// - A resolvable private address (top bits `01`) that a key resolves: the key's device name, whatever the
    ///   stated type.
    /// - Random type, top bits `01` unresolved, `00` (non-resolvable) or `10` (reserved): `randomAddress`, dropped:
    ///   the address changes within minutes and would only add short-lived phantom devices.
    /// - Unknown type (Theengs Gateway does not say whether an address is public or random): the address, except
    ///   top bits `01` unresolved while keys are configured, taken for an unresolved private address and dropped
    ///   (`randomAddress`). Without keys it is kept: a public address may begin with the same bits, and Theengs
    ///   already drops the random addresses its decoder recognises (`RMAC`) by default.
    func device(address: BluetoothAddress, type: AddressType) throws(GatewayPayloadError) -> String {
        let resolvable = ResolvablePrivateAddress.isResolvable(address)
        if type != .public, resolvable, let name = resolver?.resolve(address) { return name }
        switch type {
        case .public:
            return address.text
        case .random:
            if ResolvablePrivateAddress.isStatic(address) { return address.text }
            throw randomAddress(
                address,
                resolvable ? "a resolvable private address no IRK resolves" : "a non-resolvable private address")
        case .unknown:
            if resolvable, let resolver, !resolver.isEmpty {
                throw randomAddress(
                    address, "taken for a resolvable private address (top bits 01) that no IRK resolves")
            }
            return address.text
        }
    }

    /// A `randomAddress` error about `address`.
    private func randomAddress(_ address: BluetoothAddress, _ what: String) -> GatewayPayloadError {
        GatewayPayloadError(.randomAddress, topic: topic, field: "id", detail: "id \(address.text) is \(what); dropped")
    }

    /// `mac_type` read: `0`/`2` public, `1`/`3` random, absent unknown.
    ///
    /// - Throws: `wrongType`, or `outOfRange` for a number outside 0…3.
    func addressType(_ fields: PayloadFields) throws(GatewayPayloadError) -> AddressType {
        switch try fields.integer("mac_type", in: 0...3) {
        case nil: .unknown
        case 0, 2: .public
        default: .random
        }
    }

    /// The beacon frame in the raw `manufacturerdata`, or in `servicedata` for service `feaa` (Eddystone); nil
    /// when neither holds one.
    ///
    /// - Throws: `badHex` / `wrongType` for a raw field that cannot be read.
    func beaconFrame(_ fields: PayloadFields) throws(GatewayPayloadError) -> BeaconFrame? {
        if let data = try fields.hex("manufacturerdata"), data.count <= 253,
            let frame = try? BeaconFrame.decode(
                advertisingData: [UInt8(data.count + 1), ADType.manufacturerData] + data)
        {
            return frame
        }
        guard let data = try fields.hex("servicedata"), let service = try serviceUUID(fields),
            service == Eddystone.serviceUUID, data.count <= 251
        else { return nil }
        let structure = [UInt8(data.count + 3), ADType.serviceData16, 0xAA, 0xFE] + data
        return try? BeaconFrame.decode(advertisingData: structure)
    }

    /// `servicedatauuid` as a 16-bit service UUID (4 hex digits, an optional `0x` before them); nil when absent
    /// or longer (a 128-bit UUID is no beacon service).
    ///
    /// - Throws: `badHex` / `wrongType` when it cannot be read.
    func serviceUUID(_ fields: PayloadFields) throws(GatewayPayloadError) -> UInt16? {
        guard var text = try fields.string("servicedatauuid") else { return nil }
        if text.lowercased().hasPrefix("0x") { text = String(text.dropFirst(2)) }
        guard text.utf8.count == 4 else { return nil }
        guard case .bytes(let bytes) = Hex.decode(text) else {
            throw GatewayPayloadError(
                .badHex, topic: topic, field: "servicedatauuid",
                detail: "servicedatauuid '\(text)' is not 4 hex digits")
        }
        return UInt16(bytes[0]) << 8 | UInt16(bytes[1])
    }

    /// The iBeacon identity in Theengs' decoded fields `uuid` (32 hex digits, dashes tolerated), `major`,
    /// `minor`; nil unless all three are present.
    ///
    /// - Throws: `wrongType`, `outOfRange` (major or minor outside 0…65535), `badHex` (a `uuid` that is not one).
    func decodedBeacon(_ fields: PayloadFields) throws(GatewayPayloadError) -> BeaconID? {
        guard fields.has("uuid"), fields.has("major"), fields.has("minor") else { return nil }
        let text = try fields.requiredString("uuid").filter { $0 != "-" }
        guard let major = try fields.integer("major", in: 0...65_535),
            let minor = try fields.integer("minor", in: 0...65_535)
        else { return nil }
        guard text.utf8.count == 32, case .bytes(let b) = Hex.decode(text) else {
            throw GatewayPayloadError(
                .badHex, topic: topic, field: "uuid", detail: "uuid is not 32 hex digits (a proximity UUID)")
        }
        let uuid = UUID(
            uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
        )
        return BeaconID(uuid: uuid, major: UInt16(major), minor: UInt16(minor))
    }
}
