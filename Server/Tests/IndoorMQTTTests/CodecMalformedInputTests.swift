import IndoorMQTT
import Testing

/// Malformed bytes give an `MQTTProtocolError` that says what was wrong and where; nothing traps.
@Suite("MQTT codec refuses malformed input")
struct CodecMalformedInputTests {
    static func error(
        _ bytes: [UInt8], version: MQTTProtocolVersion = .v3_1_1, maximumPacketSize: Int = 1_000
    ) throws -> MQTTProtocolError {
        let decoder = MQTTPacketDecoder(version: version, maximumPacketSize: maximumPacketSize)
        do {
            let result = try decoder.decode(bytes)
            Issue.record("decoded \(result) from \(bytes)")
        } catch let error as MQTTProtocolError {
            return error
        }
        return MQTTProtocolError(packetType: nil, offset: nil, problem: "no error")
    }

    @Test func aRemainingLengthOfFiveBytes() throws {
        let error = try Self.error([0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        #expect(error.packetType == "PUBLISH")
        #expect(error.offset == 1)
        #expect(error.problem.contains("longer than 4 bytes"))
        // Known as soon as the fourth length byte is there, before the body.
        #expect(throws: MQTTProtocolError.self) { try MQTTPacketDecoder().decode([0x30, 0x80, 0x80, 0x80, 0x80]) }
    }

    @Test func aRemainingLengthThatIsNotMinimal() throws {
        let error = try Self.error([0xC0, 0x80, 0x00])
        #expect(error.problem.contains("not minimally encoded"))
    }

    @Test func aPacketLargerThanTheMaximum() throws {
        // 2,000 bytes announced, maximum 1,000: refused from the header alone.
        let error = try Self.error([0x30, 0xD0, 0x0F])
        #expect(error.problem.contains("larger than the maximum of 1000 bytes"))
    }

    @Test func qos3() throws {
        let error = try Self.error([0x36, 5, 0, 1, 0x61, 0, 1])
        #expect(error.packetType == "PUBLISH")
        #expect(error.problem.contains("QoS 3"))
        let subscribe = try Self.error([0x82, 6, 0, 1, 0, 1, 0x61, 0x03])
        #expect(subscribe.problem.contains("QoS 3"))
        #expect(subscribe.offset == 7)
    }

    @Test func aStringPastTheEnd() throws {
        // Topic length 10, only 2 bytes follow.
        let error = try Self.error([0x30, 4, 0, 10, 0x61, 0x62])
        #expect(error.packetType == "PUBLISH")
        #expect(error.offset == 4)
        #expect(error.problem.contains("topic name needs 10 byte(s) but only 2 remain"))
    }

    @Test func truncatedFieldsInsideACompletePacket() throws {
        // A PUBACK of one byte: the packet identifier is cut.
        let pubAck = try Self.error([0x40, 1, 0])
        #expect(pubAck.problem.contains("packet identifier"))
        // A CONNACK with nothing after the flags.
        let connAck = try Self.error([0x20, 1, 0])
        #expect(connAck.problem.contains("return code"))
        // MQTT 5 PUBLISH whose properties length passes the end.
        let properties = try Self.error([0x30, 5, 0, 1, 0x61, 9, 0], version: .v5)
        #expect(properties.problem.contains("properties length 9"))
    }

    @Test func invalidUTF8InATopic() throws {
        let error = try Self.error([0x30, 5, 0, 2, 0xC3, 0x28, 0x00])
        #expect(error.problem.contains("not valid UTF-8"))
        #expect(error.offset == 4)
    }

    @Test func unknownPacketTypesAndBadFlags() throws {
        #expect(try Self.error([0x00, 0]).problem.contains("reserved"))
        #expect(try Self.error([0x50, 2, 0, 1]).problem.contains("QoS 2 packets are not supported"))
        #expect(try Self.error([0xF0, 0]).problem.contains("AUTH"))
        #expect(try Self.error([0x80, 5, 0, 1, 0, 0, 0]).problem.contains("must be 0x2"))
        #expect(try Self.error([0xC1, 0]).problem.contains("must be 0"))
        #expect(try Self.error([0x38, 3, 0, 1, 0x61]).problem.contains("DUP flag"))
    }

    @Test func otherViolations() throws {
        #expect(try Self.error([0x32, 5, 0, 1, 0x61, 0, 0]).problem.contains("non-zero"))
        #expect(try Self.error([0x30, 3, 0, 1, 0x23]).problem.contains("wildcard"))
        #expect(try Self.error([0xD0, 1, 0]).problem.contains("unexpected byte"))
        #expect(try Self.error([0x30, 5, 0, 1, 0x61, 1, 0x7F], version: .v5).problem.contains("unknown property"))
        #expect(
            try Self.error([0x10, 12, 0, 4, 0x4D, 0x51, 0x54, 0x54, 3, 0x02, 0, 60, 0, 0]).problem.contains(
                "protocol level 3"))
    }

    @Test func theDescriptionNamesTypeOffsetAndProblem() {
        let error = MQTTProtocolError(packetType: "PUBLISH", offset: 4, problem: "topic name is not valid UTF-8")
        #expect(error.description == "MQTT protocol error in PUBLISH at byte 4: topic name is not valid UTF-8")
    }

    @Test func encodingRefusesWhatCannotBeWritten() {
        #expect(throws: MQTTProtocolError.self) {
            try MQTTPacket.publish(MQTTPublish(topic: "t", payload: [], qos: .atLeastOnce)).encode(version: .v5)
        }
        #expect(throws: MQTTProtocolError.self) {
            try MQTTPacket.publish(MQTTPublish(topic: String(repeating: "a", count: 70_000), payload: []))
                .encode(version: .v3_1_1)
        }
        #expect(throws: MQTTProtocolError.self) {
            try MQTTPacket.subscribe(MQTTSubscribe(packetID: 1, subscriptions: [])).encode(version: .v3_1_1)
        }
    }

    /// Random byte strings (seeded, so a failure repeats) and mutations of valid packets never trap.
    @Test func randomBytesNeverCrashTheDecoder() throws {
        var random = SplitMix64(seed: 0x4D51_5454)
        let valid = CodecRoundTripTests.packets(.v5).compactMap { try? $0.encode(version: .v5) }
        var decoded = 0
        for round in 0..<5_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                if let first = bytes.first { bytes[0] = first & 0xF0 | (first & 0x0F) % 3 }
            } else {
                bytes = valid[Int(random.next() % UInt64(valid.count))]
                for _ in 0..<(1 + random.next() % 4) where !bytes.isEmpty {
                    bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            for version in [MQTTProtocolVersion.v3_1_1, .v5] {
                var rest = bytes[...]
                while let result = try? MQTTPacketDecoder(version: version).decode(rest),
                    case .packet(_, let count) = result
                {
                    #expect(count > 0 && count <= rest.count)
                    rest = rest.dropFirst(count)
                    decoded += 1
                }
            }
        }
        #expect(decoded > 0)
    }
}

/// A small seeded generator (SplitMix64), so random tests repeat exactly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
