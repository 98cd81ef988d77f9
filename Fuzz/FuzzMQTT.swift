// libFuzzer entry point for the MQTT codec (Server/Sources/IndoorMQTT/Codec): the input is fed to the packet
// decoder of both protocol versions, whole and in pieces, as a connection would deliver it; each packet that
// decodes is encoded again and must decode to itself.
// Built by Fuzz/run-mqtt.sh (not a SwiftPM target), from the codec's files alone.
import IndoorMQTT

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMQTT(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let input = Array(UnsafeRawBufferPointer(start: start, count: count))
    // First byte: protocol version (bit 0), piece size (the rest); the others are the stream.
    let version: MQTTProtocolVersion = input[0] & 1 == 0 ? .v3_1_1 : .v5
    let pieceSize = Int(input[0] >> 1) + 1
    let stream = Array(input.dropFirst())
    let decoder = MQTTPacketDecoder(version: version, maximumPacketSize: 4_096)
    var pending: [UInt8] = []
    var position = 0
    while position < stream.count {
        let end = min(stream.count, position + pieceSize)
        pending += stream[position..<end]
        position = end
        while true {
            let result: MQTTDecodeResult
            do {
                _ = try decoder.frameLength(pending[...])
                result = try decoder.decode(pending)
            } catch {
                _ = String(describing: error)
                return 0
            }
            guard case .packet(let packet, let byteCount) = result else { break }
            precondition(byteCount > 0 && byteCount <= pending.count, "decoder used more bytes than it was given")
            pending.removeFirst(byteCount)
            checkRoundTrip(packet, version: version, decoder: decoder)
        }
    }
    return 0
}

func checkRoundTrip(_ packet: MQTTPacket, version: MQTTProtocolVersion, decoder: MQTTPacketDecoder) {
    var decoder = decoder
    if case .connect(let connect) = packet { decoder.version = connect.protocolVersion }
    guard let bytes = try? packet.encode(version: decoder.version) else { return }
    decoder.maximumPacketSize = bytes.count
    guard case .packet(let again, let count)? = try? decoder.decode(bytes) else {
        preconditionFailure("\(packet) encoded to bytes that do not decode")
    }
    precondition(count == bytes.count && again == packet, "\(packet) did not round-trip: \(again)")
}
