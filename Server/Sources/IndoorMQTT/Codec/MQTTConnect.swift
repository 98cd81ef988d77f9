/// CONNECT: the first packet a client sends.
public struct MQTTConnect: Sendable, Hashable {
    /// Protocol level written in the packet; decides the layout of everything after it.
    public var protocolVersion: MQTTProtocolVersion
    /// Client identifier: names the session on the broker (1 to 23 characters is always accepted; mosquitto
    /// takes longer ones). An empty id asks for a clean session with an id the broker picks.
    public var clientID: String
    /// Keep-alive in seconds: the longest the client stays silent; 0 turns keep-alive off.
    public var keepAliveSeconds: UInt16
    /// Clean Session (3.1.1) or Clean Start (5): discard any session the broker holds for this client id.
    /// With 3.1.1, false also keeps the session after disconnect; with 5 that is the session expiry's job.
    public var cleanSession: Bool
    public var username: String?
    /// Password bytes (binary data in the protocol; usually UTF-8 text).
    public var password: [UInt8]?
    public var will: MQTTWill?
    /// MQTT 5 CONNECT properties, e.g. `sessionExpiryIntervalSeconds`; must be empty for 3.1.1.
    public var properties: MQTTProperties

    public init(
        protocolVersion: MQTTProtocolVersion, clientID: String, keepAliveSeconds: UInt16, cleanSession: Bool,
        username: String? = nil, password: [UInt8]? = nil, will: MQTTWill? = nil,
        properties: MQTTProperties = MQTTProperties()
    ) {
        self.protocolVersion = protocolVersion
        self.clientID = clientID
        self.keepAliveSeconds = keepAliveSeconds
        self.cleanSession = cleanSession
        self.username = username
        self.password = password
        self.will = will
        self.properties = properties
    }
}
