/// A node's periodic health report (ESPresense `<root>/rooms/<node>/telemetry`, every 15 s).
///
/// Every field is optional: firmware versions differ, and a field of an unexpected type reads as absent
/// (telemetry is for diagnostics, never for positions).
public struct GatewayNodeTelemetry: Hashable, Sendable {
    /// The node's IP address (`ip`).
    public var ipAddress: String?
    /// Seconds since the node booted (`uptime`).
    public var uptimeSeconds: Double?
    /// The firmware build name (`firm`), such as `esp32`.
    public var firmware: String?
    /// The firmware version (`ver`), such as `v4.0.3`.
    public var version: String?
    /// The node's Wi-Fi signal strength, dBm (`rssi`).
    public var wifiRSSI: Double?
    /// Advertisements heard since boot (`adverts`).
    public var advertisementCount: Int?
    /// Devices fingerprinted since boot (`seen`).
    public var seenCount: Int?
    /// Device reports published since boot (`reported`).
    public var reportedCount: Int?

    /// Telemetry with the given fields; `uptimeSeconds` in s, `wifiRSSIDBm` in dBm.
    public init(
        ipAddress: String? = nil, uptimeSeconds: Double? = nil, firmware: String? = nil, version: String? = nil,
        wifiRSSIDBm: Double? = nil, advertisementCount: Int? = nil, seenCount: Int? = nil, reportedCount: Int? = nil
    ) {
        self.ipAddress = ipAddress
        self.uptimeSeconds = uptimeSeconds
        self.firmware = firmware
        self.version = version
        self.wifiRSSI = wifiRSSIDBm
        self.advertisementCount = advertisementCount
        self.seenCount = seenCount
        self.reportedCount = reportedCount
    }
}
