/// TLS for `mqtts://`: which certificate authorities to trust.
public struct MQTTTLSSettings: Sendable, Hashable {
    /// A PEM file of CA certificates to trust instead of the system's roots (a private CA, a test CA);
    /// nil trusts the system's roots.
    public var caFilePath: String?
    /// The name the server's certificate must carry (and the SNI sent); nil uses the configured host.
    public var serverName: String?

    public init(caFilePath: String? = nil, serverName: String? = nil) {
        self.caFilePath = caFilePath
        self.serverName = serverName
    }
}
