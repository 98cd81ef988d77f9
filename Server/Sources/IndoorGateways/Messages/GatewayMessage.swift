/// What one MQTT message from a BLE gateway means to Indoor.
public enum GatewayMessage: Hashable, Sendable {
    /// A device heard by a node.
    case sighting(GatewaySighting)
    /// A node came online (`online`) or went away (`offline`, usually its MQTT will).
    case nodeStatus(node: String, online: Bool)
    /// A node's periodic health report.
    case nodeTelemetry(node: String, telemetry: GatewayNodeTelemetry)
    /// A message of a gateway that carries no sighting (settings, GATT reports, sensors); `reason` says which.
    case ignored(reason: String)
}
