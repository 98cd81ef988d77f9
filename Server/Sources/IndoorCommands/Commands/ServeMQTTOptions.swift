import ArgumentParser
import Foundation
import IndoorGateways
import IndoorMQTT
import IndoorModel
import IndoorServer
import Logging

/// `indoor serve`'s options for a broker: gateways in (ESPresense, Theengs Gateway, OpenMQTTGateway), fixes, zone
/// events and Home Assistant out.
struct ServeMQTTOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Take BLE gateways' messages from this broker (and, with --publish, publish fixes and zone events to "
                + "it): mqtt://[user@]host[:port] or mqtts://… (INDOOR_MQTT; the password from INDOOR_MQTT_PASSWORD).",
            valueName: "url"))
    var mqtt: String?

    @Option(help: ArgumentHelp("The MQTT client id (default indoor-HOSTNAME).", valueName: "id"))
    var mqttClientID: String?

    @Option(help: MQTTVersionOption.help)
    var mqttVersion: MQTTVersionOption = .mqtt311

    @Option(
        help: ArgumentHelp("A PEM CA certificate to trust for mqtts:// (default: the system's).", valueName: "path"))
    var mqttCA: String?

    @Option(help: ArgumentHelp("ESPresense's root topic.", valueName: "topic"))
    var espresenseRoot: String = "espresense"

    @Option(
        help: ArgumentHelp(
            "The prefix before <gateway>/BTtoMQTT of Theengs Gateway and OpenMQTTGateway (repeatable; default home).",
            valueName: "topic"))
    var theengsPrefix: [String] = []

    @Flag(
        help: ArgumentHelp(
            "Publish each device's fixes (retained) and zone events to the broker; off by default.",
            discussion: "Without it the broker is only read from. --publish-device limits it to some devices."))
    var publish = false

    @Option(
        help: ArgumentHelp(
            "With --publish, publish only the devices whose id matches this pattern (repeatable; * ? [..]); every "
                + "device otherwise.",
            valueName: "glob"))
    var publishDevice: [String] = []

    @Option(
        help: ArgumentHelp(
            "The root of what the server publishes: <root>/<venue>/devices/<device>, <root>/<venue>/events.",
            valueName: "topic"))
    var publishRoot: String = "indoor"

    @Option(
        help: ArgumentHelp(
            "A JSON file of identity resolving keys by device name, {\"anna-iphone\": \"<32 hex digits>\"}, in "
                + "ESPresense's or the macOS keychain's byte order.",
            valueName: "path"))
    var irks: String?

    @Flag(
        help:
            ArgumentHelp(
                "Publish a Home Assistant device (MQTT discovery: a home/not_home tracker and a room sensor) for each "
                    + "device --home-assistant-device selects."))
    var homeAssistant = false

    @Option(help: ArgumentHelp("Home Assistant's discovery prefix.", valueName: "topic"))
    var homeAssistantPrefix: String = "homeassistant"

    @Option(
        help: ArgumentHelp(
            "The devices Home Assistant is given: those matching this pattern (repeatable; * ? [..]); '*' for every "
                + "device. Needed with --home-assistant.",
            valueName: "glob"))
    var homeAssistantDevice: [String] = []

    func validate() throws {
        if mqttURL == nil {
            let needing = [
                (mqttClientID != nil, "--mqtt-client-id"), (mqttCA != nil, "--mqtt-ca"),
                (mqttVersion != .mqtt311, "--mqtt-version"), (irks != nil, "--irks"),
                (homeAssistant, "--home-assistant"), (!homeAssistantDevice.isEmpty, "--home-assistant-device"),
                (publish, "--publish"), (!publishDevice.isEmpty, "--publish-device"),
            ]
            if let (_, option) = needing.first(where: { $0.0 }) {
                throw ValidationError("\(option) needs --mqtt, the broker to use")
            }
            return
        }
        _ = try url()
        if !publishDevice.isEmpty && !publish {
            throw ValidationError("--publish-device needs --publish: publishing is off unless asked for")
        }
        if homeAssistant && homeAssistantDevice.isEmpty {
            throw ValidationError(
                "--home-assistant needs --home-assistant-device GLOB (repeatable), the devices Home Assistant is "
                    + "given; --home-assistant-device '*' gives it every device")
        }
        if !homeAssistantDevice.isEmpty && !homeAssistant {
            throw ValidationError("--home-assistant-device needs --home-assistant")
        }
        for (option, topic) in [("--espresense-root", espresenseRoot), ("--publish-root", publishRoot)]
        where topic.isEmpty || topic.contains("+") || topic.contains("#") {
            throw ValidationError("\(option) '\(topic)' must be a topic without wildcards")
        }
    }

    private var mqttURL: String? {
        mqtt ?? ProcessInfo.processInfo.environment["INDOOR_MQTT"].flatMap { $0.isEmpty ? nil : $0 }
    }

    private func url() throws -> MQTTURL? {
        guard let text = mqttURL else { return nil }
        do {
            return try MQTTURL(parsing: text)
        } catch {
            throw ValidationError("--mqtt '\(text)': \(error)")
        }
    }

    /// Whose fixes and zone events are published: none without `--publish`, every device's with it alone, else
    /// those matching a `--publish-device` pattern.
    var published: DeviceSelection? {
        guard publish else { return nil }
        return DeviceSelection(patterns: publishDevice.isEmpty ? ["*"] : publishDevice)
    }

    /// Home Assistant's discovery with `--home-assistant`, for the devices `--home-assistant-device` selects.
    var homeAssistantDiscovery: MQTTBridgeConfiguration.HomeAssistant? {
        guard homeAssistant else { return nil }
        return MQTTBridgeConfiguration.HomeAssistant(
            prefix: homeAssistantPrefix, devices: DeviceSelection(patterns: homeAssistantDevice))
    }

    /// The device names of the `--irks` file (none without it): the server never pseudonymises them.
    /// - Throws: ``CommandFailure`` for an unreadable IRK file.
    func irkNames() throws -> Set<String> {
        guard mqttURL != nil, let irks else { return [] }
        return Set(try IRKFile.keys(path: irks).keys)
    }

    /// The bridge to the broker, or `nil` without `--mqtt`. With several instances (`--instance`), the default client
    /// id names the instance too: a broker keeps one connection per client id.
    /// - Throws: ``CommandFailure`` for an unreadable IRK file or CA file, or a key that is not 32 hex digits.
    /// Under MQTT 5 its retained messages expire with `retention`'s events (``MQTTBridgeConfiguration/retainedExpirySeconds``).
    func bridge(hub: VenueHub, retention: Retention, metrics: ServerMetrics, logger: Logger) throws -> MQTTBridge? {
        guard let url = try url() else { return nil }
        if !url.isTLS && !LoopbackHost.contains(url.host) {
            let warning =
                "the MQTT broker \(url.host):\(url.port) is not on this machine and is spoken to without TLS: "
                + "sightings and the MQTT password cross the network in plain text; use mqtts://"
            logger.warning("\(warning)")
        }
        if let mqttCA, !FileManager.default.isReadableFile(atPath: mqttCA) {
            throw CommandFailure("cannot read the CA certificate '\(mqttCA)' (--mqtt-ca): no such readable file")
        }
        let password = ProcessInfo.processInfo.environment["INDOOR_MQTT_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "server"
        let client = MQTTClient(
            configuration: mqttVersion.applied(
                to: MQTTConfiguration(
                    url: url, clientID: mqttClientID ?? "indoor-\(host)\(hub.cluster.map { "-" + $0.instance } ?? "")",
                    password: password, caFilePath: mqttCA)),
            logger: Logger(label: "indoor.mqtt", factory: { label in StreamLogHandler.standardError(label: label) }))
        let configuration = MQTTBridgeConfiguration(
            topics: GatewayTopicConfiguration(
                espresenseRoot: espresenseRoot, theengsPrefixes: theengsPrefix.isEmpty ? ["home"] : theengsPrefix),
            irks: try irks.map { try IRKFile.keys(path: $0) } ?? [:], publishRoot: publishRoot,
            publish: published, homeAssistant: homeAssistantDiscovery, retainedExpirySeconds: retention.events)
        do {
            return try MQTTBridge(
                hub: hub, client: client, configuration: configuration, metrics: metrics, logger: logger)
        } catch {
            throw CommandFailure("--irks '\(irks ?? "")': \(error)")
        }
    }
}
