import NIOCore

/// Cuts the byte stream from the broker into MQTT packets with `MQTTPacketDecoder`.
///
/// A packet's body is copied out only once it has fully arrived; a malformed packet or one larger than the
/// maximum throws `MQTTProtocolError`, which closes the connection.
struct MQTTFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = MQTTPacket

    let decoder: MQTTPacketDecoder

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let header = buffer.getBytes(at: buffer.readerIndex, length: min(5, buffer.readableBytes)),
            let total = try decoder.frameLength(header[...]), buffer.readableBytes >= total,
            let bytes = buffer.readBytes(length: total)
        else { return .needMoreData }
        guard case .packet(let packet, _) = try decoder.decode(bytes) else {
            throw MQTTProtocolError(packetType: nil, offset: 0, problem: "a complete packet did not decode")
        }
        context.fireChannelRead(wrapInboundOut(packet))
        return .continue
    }

    mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
