/// What `MQTTPacketDecoder.decode` found at the front of the bytes it was given.
public enum MQTTDecodeResult: Sendable, Hashable {
    /// The bytes hold only the beginning of a packet: call again when more have arrived.
    case needMoreBytes
    /// A complete packet, which took the first `byteCount` bytes.
    case packet(MQTTPacket, byteCount: Int)
}
