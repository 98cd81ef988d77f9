import IndoorMQTT
import Testing

/// Every packet type encodes and decodes back to itself, for MQTT 3.1.1 and MQTT 5.
@Suite("MQTT codec round trips")
struct CodecRoundTripTests {
    static func roundTrip(_ packet: MQTTPacket, _ version: MQTTProtocolVersion) throws -> MQTTPacket {
        let bytes = try packet.encode(version: version)
        let decoder = MQTTPacketDecoder(version: version)
        // Proper prefixes are "need more" (all of a small packet's, a sample of a large one's); the whole is
        // exactly one packet.
        for count in 0..<bytes.count where count < 300 || count % 4_999 == 0 {
            #expect(try decoder.decode(Array(bytes[0..<count])) == .needMoreBytes)
        }
        let result = try decoder.decode(bytes + [0xC0, 0x00])
        guard case .packet(let decoded, let byteCount) = result else {
            Issue.record("\(packet.type) did not decode: \(result)")
            return packet
        }
        #expect(byteCount == bytes.count)
        return decoded
    }

    static func v5Properties() -> MQTTProperties {
        MQTTProperties([
            MQTTProperty(identifier: MQTTProperty.userProperty, value: .stringPair("venue", "hq")),
            MQTTProperty(identifier: MQTTProperty.subscriptionIdentifier, value: .variableByteInteger(200_000)),
            MQTTProperty(identifier: MQTTProperty.correlationData, value: .binary([1, 2, 3])),
            MQTTProperty(identifier: MQTTProperty.payloadFormatIndicator, value: .byte(1)),
            MQTTProperty(identifier: MQTTProperty.messageExpiryInterval, value: .fourByteInteger(60)),
        ])
    }

    static func packets(_ version: MQTTProtocolVersion) -> [MQTTPacket] {
        let properties = version == .v5 ? v5Properties() : MQTTProperties()
        var sessionExpiry = MQTTProperties()
        if version == .v5 { sessionExpiry.sessionExpiryIntervalSeconds = 86_400 }
        return [
            .connect(
                MQTTConnect(
                    protocolVersion: version, clientID: "indoor-1", keepAliveSeconds: 30, cleanSession: false,
                    username: "user", password: Array("pass".utf8),
                    will: MQTTWill(
                        topic: "indoor/status", payload: Array("offline".utf8), qos: .atLeastOnce, retain: true,
                        properties: version == .v5
                            ? MQTTProperties([
                                MQTTProperty(identifier: MQTTProperty.willDelayInterval, value: .fourByteInteger(5))
                            ]) : MQTTProperties()),
                    properties: sessionExpiry)),
            .connect(
                MQTTConnect(protocolVersion: version, clientID: "", keepAliveSeconds: 0, cleanSession: true)),
            .connAck(MQTTConnAck(sessionPresent: true, code: 0, properties: properties)),
            .connAck(MQTTConnAck(sessionPresent: false, code: version == .v5 ? 0x86 : 4)),
            .publish(MQTTPublish(topic: "espresense/devices/irk:00/kitchen", payload: Array("{\"rssi\":-60}".utf8))),
            .publish(
                MQTTPublish(
                    topic: "home/gw/BTtoMQTT/AABB", payload: [], qos: .atLeastOnce, retain: true, duplicate: true,
                    packetID: 65_535, properties: properties)),
            .publish(
                MQTTPublish(topic: "ü/€", payload: Array(repeating: 7, count: 20_000), qos: .atLeastOnce, packetID: 1)),
            .pubAck(MQTTPubAck(packetID: 42)),
            .subscribe(
                MQTTSubscribe(
                    packetID: 7,
                    subscriptions: [
                        .init(topicFilter: "espresense/devices/+/+", qos: .atLeastOnce),
                        .init(topicFilter: "home/#", qos: .atMostOnce),
                    ], properties: properties)),
            .subAck(MQTTSubAck(packetID: 7, codes: [1, 0, 0x80], properties: properties)),
            .unsubscribe(MQTTUnsubscribe(packetID: 8, topicFilters: ["home/#", "a/b"], properties: properties)),
            .unsubAck(MQTTUnsubAck(packetID: 8, reasonCodes: version == .v5 ? [0, 0x11] : [])),
            .pingReq,
            .pingResp,
            .disconnect(MQTTDisconnect()),
        ]
    }

    @Test(arguments: [MQTTProtocolVersion.v3_1_1, .v5])
    func everyPacketTypeRoundTrips(version: MQTTProtocolVersion) throws {
        for packet in Self.packets(version) {
            #expect(try Self.roundTrip(packet, version) == packet)
        }
    }

    @Test func mqtt5AcknowledgementsWithReasonCodesRoundTrip() throws {
        let reason = MQTTProperties([MQTTProperty(identifier: MQTTProperty.reasonString, value: .string("quota"))])
        for packet: MQTTPacket in [
            .pubAck(MQTTPubAck(packetID: 3, reasonCode: 0x10)),
            .pubAck(MQTTPubAck(packetID: 3, reasonCode: 0x97, properties: reason)),
            .disconnect(MQTTDisconnect(reasonCode: 0x8B, properties: reason)),
            .disconnect(MQTTDisconnect(reasonCode: 0x04)),
        ] {
            #expect(try Self.roundTrip(packet, .v5) == packet)
        }
    }

    @Test func knownBytesOfAPublishAndAConnect() throws {
        let publish = MQTTPacket.publish(
            MQTTPublish(topic: "a/b", payload: [0x68, 0x69], qos: .atLeastOnce, retain: true, packetID: 10))
        #expect(try publish.encode(version: .v3_1_1) == [0x33, 9, 0, 3, 0x61, 0x2F, 0x62, 0, 10, 0x68, 0x69])
        // MQTT 5: an empty properties field (one zero byte) before the payload.
        #expect(try publish.encode(version: .v5) == [0x33, 10, 0, 3, 0x61, 0x2F, 0x62, 0, 10, 0, 0x68, 0x69])
        let connect = MQTTPacket.connect(
            MQTTConnect(protocolVersion: .v3_1_1, clientID: "c", keepAliveSeconds: 60, cleanSession: true))
        #expect(
            try connect.encode(version: .v3_1_1) == [
                0x10, 13, 0, 4, 0x4D, 0x51, 0x54, 0x54, 4, 0x02, 0, 60, 0, 1, 0x63,
            ])
    }

    @Test func aPacketOfTwoHundredKilobytesUsesAThreeByteRemainingLength() throws {
        let packet = MQTTPacket.publish(MQTTPublish(topic: "t", payload: Array(repeating: 1, count: 200_000)))
        let bytes = try packet.encode(version: .v3_1_1)
        #expect(bytes[1] & 0x80 != 0 && bytes[2] & 0x80 != 0 && bytes[3] & 0x80 == 0)
        #expect(try MQTTPacketDecoder().frameLength(bytes[0..<4]) == bytes.count)
        #expect(try Self.roundTrip(packet, .v3_1_1) == packet)
    }

    @Test func sessionExpiryAndConnAckDescriptions() throws {
        var properties = MQTTProperties()
        properties.sessionExpiryIntervalSeconds = 3_600
        #expect(properties.sessionExpiryIntervalSeconds == 3_600)
        properties.sessionExpiryIntervalSeconds = nil
        #expect(properties.isEmpty)
        #expect(
            MQTTConnAck(sessionPresent: false, code: 4).reasonDescription(version: .v3_1_1)
                == "bad user name or password (0x4)")
        #expect(
            MQTTConnAck(sessionPresent: false, code: 0x87).reasonDescription(version: .v5) == "not authorized (0x87)")
        #expect(MQTTSubAck(packetID: 1, codes: [1, 0x80]).grantedQoS == [.atLeastOnce, nil])
    }
}
