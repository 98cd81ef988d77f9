import IndoorModel

/// One advertisement a gateway heard, without a time: the server stamps the arrival time.
public struct GatewaySighting: Hashable, Sendable {
    /// The gateway software that reported it.
    public var gateway: GatewayKind
    /// The receiving node: ESPresense's `<node>` topic segment (the room), Theengs' `<gateway>` topic segment.
    public var node: String
    /// The device heard: a beacon identity, a resolved IRK's device name, or an address (see ``GatewayMessageParser``).
    public var device: String
    /// Received signal strength, dBm, within ``Sighting/physicalRSSIRange``.
    public var rssi: Double
    /// The expected received power at 1 m, dBm, when the message carries it (ESPresense `rssi@1m`, a decoded
    /// beacon frame's calibrated power, else Theengs' `txpower`), within ``Sighting/advertisedTxPowerRange``.
    public var txPower: Double?

    /// A sighting by `gateway` at `node` of `device`, with `rssiDBm` and `txPowerDBm` in dBm.
    public init(gateway: GatewayKind, node: String, device: String, rssiDBm: Double, txPowerDBm: Double? = nil) {
        self.gateway = gateway
        self.node = node
        self.device = device
        self.rssi = rssiDBm
        self.txPower = txPowerDBm
    }

    /// This sighting as the engine's ``Sighting`` at `time` seconds (the arrival time the server chooses).
    public func sighting(time: Double) -> Sighting {
        Sighting(time: time, device: device, node: node, rssi: rssi, txPower: txPower)
    }
}
