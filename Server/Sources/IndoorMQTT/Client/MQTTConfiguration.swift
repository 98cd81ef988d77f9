/// Everything `MQTTClient` needs to connect, subscribe and stay connected.
public struct MQTTConfiguration: Sendable, Hashable {
    /// The environment variable an application reads the broker password from (never from the URL).
    public static let passwordEnvironmentVariable = "INDOOR_MQTT_PASSWORD"

    /// Host name or IP address of the broker.
    public var host: String
    /// TCP port; 1883 for `mqtt://`, 8883 for `mqtts://` by default.
    public var port: Int
    /// Client identifier: names the persistent session on the broker, so it must be stable across restarts
    /// and unique among the broker's clients (a second connection with it takes the session over).
    public var clientID: String
    public var username: String?
    public var password: String?
    /// Keep-alive interval in seconds (1 to 65,535): a PINGREQ is sent this often, and a connection whose
    /// PINGRESP has not come back by the next one is taken as dead.
    public var keepAliveSeconds: UInt16
    /// Start a new session on each connection. False (the default) keeps a persistent session: the broker holds
    /// subscriptions and unacknowledged QoS 1 messages while the client is away.
    public var cleanSession: Bool
    /// The protocol version to connect with.
    public var protocolVersion: MQTTProtocolVersion
    /// With `protocolVersion` MQTT 5: when the broker refuses MQTT 5 (a CONNACK "unsupported protocol version", or
    /// the connection closed before any CONNACK, or no CONNACK within 5 s until a broker has accepted MQTT 5 once),
    /// connect with MQTT 3.1.1 instead, from then on, and say so (``MQTTBrokerReport/fallBackReason``). False: keep
    /// trying MQTT 5.
    public var allowsFallBack: Bool
    /// MQTT 5: how long the broker keeps the session after a disconnect, in seconds (sent only when
    /// `cleanSession` is false). MQTT 3.1.1 sessions are kept until the broker's own expiry.
    public var sessionExpirySeconds: UInt32
    /// TLS settings; nil connects in the clear.
    public var tls: MQTTTLSSettings?
    public var will: MQTTWill?
    public var reconnectBackoff: MQTTReconnectBackoff
    /// Largest packet accepted from the broker, in bytes; a larger one closes the connection.
    public var maximumPacketSize: Int
    /// Time allowed for the TCP (and TLS) connection, CONNACK and the SUBACKs, in seconds.
    public var connectTimeoutSeconds: Int
    /// Messages held while the handler is busy; beyond this the client stops reading from the socket.
    public var maximumBufferedMessages: Int
    /// Largest number of messages handed to the handler in one call.
    public var maximumBatchSize: Int

    public init(
        host: String, port: Int? = nil, clientID: String, username: String? = nil, password: String? = nil,
        keepAliveSeconds: UInt16 = 30, cleanSession: Bool = false, protocolVersion: MQTTProtocolVersion = .v3_1_1,
        allowsFallBack: Bool = false,
        sessionExpirySeconds: UInt32 = 86_400, tls: MQTTTLSSettings? = nil, will: MQTTWill? = nil,
        reconnectBackoff: MQTTReconnectBackoff = MQTTReconnectBackoff(),
        maximumPacketSize: Int = MQTTPacketDecoder.defaultMaximumPacketSize, connectTimeoutSeconds: Int = 30,
        maximumBufferedMessages: Int = 10_000, maximumBatchSize: Int = 1_000
    ) {
        self.host = host
        self.port = port ?? (tls == nil ? 1883 : 8883)
        self.clientID = clientID
        self.username = username
        self.password = password
        self.keepAliveSeconds = max(1, keepAliveSeconds)
        self.cleanSession = cleanSession
        self.protocolVersion = protocolVersion
        self.allowsFallBack = allowsFallBack
        self.sessionExpirySeconds = sessionExpirySeconds
        self.tls = tls
        self.will = will
        self.reconnectBackoff = reconnectBackoff
        self.maximumPacketSize = maximumPacketSize
        self.connectTimeoutSeconds = max(1, connectTimeoutSeconds)
        self.maximumBufferedMessages = max(1, maximumBufferedMessages)
        self.maximumBatchSize = max(1, maximumBatchSize)
    }

    /// A configuration from a broker URL (`mqtt://[user@]host[:port]` or `mqtts://…`), with the defaults for
    /// everything else. The password comes separately (from `INDOOR_MQTT_PASSWORD`), never from the URL.
    public init(url: MQTTURL, clientID: String, password: String? = nil, caFilePath: String? = nil) {
        self.init(
            host: url.host, port: url.port, clientID: clientID, username: url.username, password: password,
            tls: url.isTLS ? MQTTTLSSettings(caFilePath: caFilePath) : nil)
    }
}
