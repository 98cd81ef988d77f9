import NIOCore

/// Writes MQTT packets to the byte stream, laid out for the connection's protocol version.
struct MQTTFrameEncoder: MessageToByteEncoder {
    typealias OutboundIn = MQTTPacket

    let version: MQTTProtocolVersion

    func encode(data: MQTTPacket, out: inout ByteBuffer) throws {
        out.writeBytes(try data.encode(version: version))
    }
}
