/// Which gateway software published a message.
public enum GatewayKind: String, Hashable, Sendable, CaseIterable {
    /// ESPresense nodes: `<root>/devices/<device>/<node>`, one node per room.
    case espresense
    /// Theengs Gateway and OpenMQTTGateway, which share the layout `<prefix>/<gateway>/BTtoMQTT/<address>`.
    case theengs
}
