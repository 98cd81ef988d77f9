import IndoorGateways

/// What `indoor serve --mqtt` takes from the broker and gives back to it.
public struct MQTTBridgeConfiguration: Sendable {
    /// Where the gateways publish: ESPresense's root (`espresense`) and Theengs Gateway / OpenMQTTGateway's
    /// prefixes (`home`).
    public var topics: GatewayTopicConfiguration
    /// Identity resolving keys by device name (32 hex digits, in either byte order), so that the private addresses
    /// of a phone or watch are seen as that device.
    public var irks: [String: String]
    /// The root of what the server publishes: `<root>/<venue>/devices/<device>` (the latest fix and room, retained)
    /// and `<root>/<venue>/events` (check-ins and check-outs).
    public var publishRoot: String
    /// Whose fixes and zone events are published under `publishRoot` (`--publish`, `--publish-device`); `nil`, the
    /// default, publishes none: the bridge then only takes the gateways' messages (and Home Assistant's trackers,
    /// when asked for, are published all the same).
    public var publish: DeviceSelection?
    /// Home Assistant's MQTT discovery, when wanted.
    public var homeAssistant: HomeAssistant?
    /// MQTT 5: the Message Expiry Interval every retained message carries, seconds, so that the broker drops a
    /// device's retained fix, state, attributes and discovery once the server no longer keeps its data (`indoor serve`
    /// gives the events' retention, `--retain-events`, with which a latest fix expires); `nil` (or infinite) for
    /// none. Under MQTT 3.1.1 retained messages stay until emptied.
    public var retainedExpirySeconds: Double?

    /// Home Assistant's MQTT discovery: per device a `device_tracker` (`home` / `not_home`) and a `sensor` (its
    /// room), under one Home Assistant device.
    public struct HomeAssistant: Sendable {
        /// Home Assistant's discovery prefix (`homeassistant`); it announces itself on `<prefix>/status`.
        public var prefix: String
        /// The devices given to Home Assistant (`--home-assistant-device`): none unless listed or told every one.
        public var devices: DeviceSelection

        public init(prefix: String = "homeassistant", devices: DeviceSelection) {
            self.prefix = prefix
            self.devices = devices
        }
    }

    public init(
        topics: GatewayTopicConfiguration = GatewayTopicConfiguration(), irks: [String: String] = [:],
        publishRoot: String = "indoor", publish: DeviceSelection? = nil, homeAssistant: HomeAssistant? = nil,
        retainedExpirySeconds: Double? = nil
    ) {
        self.retainedExpirySeconds = retainedExpirySeconds
        self.topics = topics
        self.irks = irks
        self.publishRoot = publishRoot
        self.publish = publish
        self.homeAssistant = homeAssistant
    }
}
