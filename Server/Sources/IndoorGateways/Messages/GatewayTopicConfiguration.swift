/// Where gateways publish, and how much a message may weigh.
public struct GatewayTopicConfiguration: Hashable, Sendable {
    /// The default largest payload read, bytes: 64 KiB (a gateway message is a few hundred bytes).
    public static let defaultMaximumPayloadBytes = 65_536
    /// The largest topic read, bytes.
    public static let maximumTopicBytes = 1_024

    /// ESPresense's root topic (its `mqtt > prefix` setting), `espresense` by default; may have several levels.
    public var espresenseRoot: String
    /// The prefixes before `<gateway>/BTtoMQTT` that Theengs Gateway and OpenMQTTGateway use, `home` by default;
    /// each may have several levels. Empty: any prefix (the `BTtoMQTT` segment alone marks the layout).
    public var theengsPrefixes: [String]
    /// The largest payload read, bytes; a larger one is refused (`tooLarge`) before it is parsed.
    public var maximumPayloadBytes: Int

    /// A configuration; the defaults are the gateways' own.
    public init(
        espresenseRoot: String = "espresense", theengsPrefixes: [String] = ["home"],
        maximumPayloadBytes: Int = GatewayTopicConfiguration.defaultMaximumPayloadBytes
    ) {
        self.espresenseRoot = espresenseRoot
        self.theengsPrefixes = theengsPrefixes
        self.maximumPayloadBytes = maximumPayloadBytes
    }
}
