/// Decodes MQTT packets from bytes as they arrive from a connection.
///
/// `decode` never traps on any input: malformed bytes throw `MQTTProtocolError`, after which the connection
/// should be closed (the stream cannot be resynchronised).
public struct MQTTPacketDecoder: Sendable {
    /// Default `maximumPacketSize`: 1 MiB of payload plus room for the topic, properties and headers.
    public static let defaultMaximumPacketSize = 1_048_576 + 65_536

    /// Protocol version of the connection; decides the layout of every packet but CONNECT (which says its own).
    public var version: MQTTProtocolVersion
    /// Largest packet accepted, in bytes, fixed header included. A larger one throws as soon as its fixed
    /// header is readable, before its body is buffered.
    public var maximumPacketSize: Int

    public init(version: MQTTProtocolVersion = .v3_1_1, maximumPacketSize: Int = Self.defaultMaximumPacketSize) {
        self.version = version
        self.maximumPacketSize = maximumPacketSize
    }

    /// The total size in bytes of the packet at the front of `bytes` (fixed header included), once its fixed
    /// header is complete; nil while it is not. Throws for a bad first byte, a malformed remaining length or a
    /// packet larger than `maximumPacketSize`.
    public func frameLength(_ bytes: ArraySlice<UInt8>) throws -> Int? {
        try fixedHeader(bytes)?.total
    }

    /// The fixed header's length and the packet's total length, once the fixed header is complete.
    private func fixedHeader(_ bytes: ArraySlice<UInt8>) throws -> (headerLength: Int, total: Int)? {
        guard let first = bytes.first else { return nil }
        let type = try Self.packetType(first)
        var remaining = 0
        for index in 0..<4 {
            let position = bytes.startIndex + 1 + index
            guard position < bytes.endIndex else { return nil }
            let byte = bytes[position]
            remaining |= Int(byte & 0x7F) << (7 * index)
            if byte & 0x80 == 0 {
                if index > 0 && byte == 0 {
                    throw MQTTProtocolError(
                        packetType: type.description, offset: 1,
                        problem: "remaining length is not minimally encoded (a trailing zero byte)")
                }
                let total = 1 + (index + 1) + remaining
                if total > maximumPacketSize {
                    throw MQTTProtocolError(
                        packetType: type.description, offset: 1,
                        problem: "packet of \(total) bytes is larger than the maximum of \(maximumPacketSize) bytes")
                }
                return (headerLength: index + 2, total: total)
            }
        }
        throw MQTTProtocolError(
            packetType: type.description, offset: 1,
            problem: "remaining length is longer than 4 bytes (the 4th byte has its continuation bit set)")
    }

    /// Decodes the packet at the front of `bytes`, or says that more bytes are needed.
    public func decode(_ bytes: ArraySlice<UInt8>) throws -> MQTTDecodeResult {
        guard let (headerLength, total) = try fixedHeader(bytes), total <= bytes.count else {
            return .needMoreBytes
        }
        let packet = bytes[bytes.startIndex..<bytes.startIndex + total]
        return .packet(try decodePacket(packet, bodyOffset: headerLength), byteCount: total)
    }

    /// Decodes the packet at the front of `bytes`, or says that more bytes are needed.
    public func decode(_ bytes: [UInt8]) throws -> MQTTDecodeResult {
        try decode(bytes[...])
    }

    /// The packet type of a first byte, with its flags checked.
    static func packetType(_ first: UInt8) throws -> MQTTPacketType {
        guard let type = MQTTPacketType(rawValue: first >> 4) else {
            throw MQTTProtocolError(packetType: nil, offset: 0, problem: "packet type 0 is reserved")
        }
        let flags = first & 0x0F
        switch type {
        case .pubRec, .pubRel, .pubComp:
            throw MQTTProtocolError(
                packetType: type.description, offset: 0, problem: "QoS 2 packets are not supported by this client")
        case .auth:
            throw MQTTProtocolError(
                packetType: type.description, offset: 0,
                problem: "enhanced authentication (AUTH) is not supported by this client")
        case .publish:
            if flags & 0x06 == 0x06 {
                throw MQTTProtocolError(packetType: type.description, offset: 0, problem: "QoS 3 is not a valid QoS")
            }
        case .subscribe, .unsubscribe:
            if flags != 0x02 {
                throw MQTTProtocolError(
                    packetType: type.description, offset: 0,
                    problem: "fixed header flags are 0x\(String(flags, radix: 16)); they must be 0x2")
            }
        default:
            if flags != 0 {
                throw MQTTProtocolError(
                    packetType: type.description, offset: 0,
                    problem: "fixed header flags are 0x\(String(flags, radix: 16)); they must be 0")
            }
        }
        return type
    }

    private func decodePacket(_ packet: ArraySlice<UInt8>, bodyOffset: Int) throws -> MQTTPacket {
        let first = packet[packet.startIndex]
        let type = try Self.packetType(first)
        var reader = MQTTByteReader(packet: packet, bodyOffset: bodyOffset, packetType: type)
        let isV5 = version == .v5
        switch type {
        case .connect:
            return .connect(try Self.decodeConnect(&reader))
        case .connAck:
            let flagsOffset = reader.offset
            let flags = try reader.readByte("acknowledge flags")
            if flags & 0xFE != 0 { throw reader.error("reserved acknowledge flags are set", offset: flagsOffset) }
            let code = try reader.readByte("return code")
            let properties = isV5 && !reader.isAtEnd ? try reader.readProperties() : MQTTProperties()
            try reader.expectEnd()
            return .connAck(MQTTConnAck(sessionPresent: flags & 1 == 1, code: code, properties: properties))
        case .publish:
            return .publish(try decodePublish(&reader, flags: first & 0x0F))
        case .pubAck:
            let packetID = try reader.readPacketID()
            var reasonCode: UInt8 = 0
            var properties = MQTTProperties()
            if isV5 && !reader.isAtEnd { reasonCode = try reader.readByte("reason code") }
            if isV5 && !reader.isAtEnd { properties = try reader.readProperties() }
            try reader.expectEnd()
            return .pubAck(MQTTPubAck(packetID: packetID, reasonCode: reasonCode, properties: properties))
        case .subscribe:
            let packetID = try reader.readPacketID()
            let properties = isV5 ? try reader.readProperties() : MQTTProperties()
            var subscriptions: [MQTTSubscribe.Subscription] = []
            repeat {
                let filter = try reader.readString("topic filter")
                let optionsOffset = reader.offset
                let options = try reader.readByte("subscription options")
                let reserved: UInt8 = isV5 ? 0xC0 : 0xFC
                if options & reserved != 0 {
                    throw reader.error("reserved bits of the subscription options are set", offset: optionsOffset)
                }
                if options & 0x30 == 0x30 {
                    throw reader.error("retain handling 3 is not valid", offset: optionsOffset)
                }
                guard let qos = MQTTQoS(rawValue: options & 0x03) else {
                    throw reader.error("QoS 3 is not a valid QoS", offset: optionsOffset)
                }
                subscriptions.append(.init(topicFilter: filter, qos: qos, options: options & 0x3C))
            } while !reader.isAtEnd
            return .subscribe(MQTTSubscribe(packetID: packetID, subscriptions: subscriptions, properties: properties))
        case .subAck:
            let packetID = try reader.readPacketID()
            let properties = isV5 ? try reader.readProperties() : MQTTProperties()
            if reader.isAtEnd { throw reader.error("no return codes") }
            return .subAck(MQTTSubAck(packetID: packetID, codes: reader.readRest(), properties: properties))
        case .unsubscribe:
            let packetID = try reader.readPacketID()
            let properties = isV5 ? try reader.readProperties() : MQTTProperties()
            var filters: [String] = []
            repeat {
                filters.append(try reader.readString("topic filter"))
            } while !reader.isAtEnd
            return .unsubscribe(MQTTUnsubscribe(packetID: packetID, topicFilters: filters, properties: properties))
        case .unsubAck:
            let packetID = try reader.readPacketID()
            var properties = MQTTProperties()
            var codes: [UInt8] = []
            if isV5 {
                properties = try reader.readProperties()
                codes = reader.readRest()
            }
            try reader.expectEnd()
            return .unsubAck(MQTTUnsubAck(packetID: packetID, reasonCodes: codes, properties: properties))
        case .pingReq:
            try reader.expectEnd()
            return .pingReq
        case .pingResp:
            try reader.expectEnd()
            return .pingResp
        case .disconnect:
            var reasonCode: UInt8 = 0
            var properties = MQTTProperties()
            if isV5 && !reader.isAtEnd { reasonCode = try reader.readByte("reason code") }
            if isV5 && !reader.isAtEnd { properties = try reader.readProperties() }
            try reader.expectEnd()
            return .disconnect(MQTTDisconnect(reasonCode: reasonCode, properties: properties))
        case .pubRec, .pubRel, .pubComp, .auth:
            // Refused by `packetType` already; kept for exhaustiveness.
            throw reader.error("\(type) is not supported by this client", offset: 0)
        }
    }

    private func decodePublish(_ reader: inout MQTTByteReader, flags: UInt8) throws -> MQTTPublish {
        guard let qos = MQTTQoS(rawValue: (flags >> 1) & 0x03) else {
            throw reader.error("QoS 3 is not a valid QoS", offset: 0)
        }
        let duplicate = flags & 0x08 != 0
        if duplicate && qos == .atMostOnce {
            throw reader.error("the DUP flag is set on a QoS 0 message", offset: 0)
        }
        let topicOffset = reader.offset
        let topic = try reader.readString("topic name")
        if topic.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "#") }) {
            throw reader.error("topic name \"\(topic)\" contains a wildcard", offset: topicOffset)
        }
        if topic.isEmpty && version == .v3_1_1 {
            throw reader.error("topic name is empty", offset: topicOffset)
        }
        let packetID = qos == .atMostOnce ? nil : try reader.readPacketID()
        let properties = version == .v5 ? try reader.readProperties() : MQTTProperties()
        if topic.isEmpty && properties.topicAlias == nil {
            throw reader.error("topic name is empty and there is no topic alias", offset: topicOffset)
        }
        return MQTTPublish(
            topic: topic, payload: reader.readRest(), qos: qos, retain: flags & 0x01 != 0, duplicate: duplicate,
            packetID: packetID, properties: properties)
    }

    private static func decodeConnect(_ reader: inout MQTTByteReader) throws -> MQTTConnect {
        let nameOffset = reader.offset
        let name = try reader.readString("protocol name")
        if name != "MQTT" {
            throw reader.error("protocol name is \"\(name)\"; it must be \"MQTT\"", offset: nameOffset)
        }
        let levelOffset = reader.offset
        let level = try reader.readByte("protocol level")
        guard let version = MQTTProtocolVersion(rawValue: level) else {
            throw reader.error("protocol level \(level) is not supported (4: 3.1.1, 5: MQTT 5)", offset: levelOffset)
        }
        let flagsOffset = reader.offset
        let flags = try reader.readByte("connect flags")
        if flags & 0x01 != 0 { throw reader.error("the reserved connect flag is set", offset: flagsOffset) }
        let hasWill = flags & 0x04 != 0
        guard let willQoS = MQTTQoS(rawValue: (flags >> 3) & 0x03) else {
            throw reader.error("will QoS 3 is not a valid QoS", offset: flagsOffset)
        }
        let willRetain = flags & 0x20 != 0
        if !hasWill && (willQoS != .atMostOnce || willRetain) {
            throw reader.error("will QoS or retain is set without a will", offset: flagsOffset)
        }
        let hasUsername = flags & 0x80 != 0
        let hasPassword = flags & 0x40 != 0
        if version == .v3_1_1 && hasPassword && !hasUsername {
            throw reader.error("a password without a user name", offset: flagsOffset)
        }
        let keepAlive = try reader.readUInt16("keep alive")
        let properties = version == .v5 ? try reader.readProperties() : MQTTProperties()
        let clientID = try reader.readString("client identifier")
        var will: MQTTWill?
        if hasWill {
            let willProperties = version == .v5 ? try reader.readProperties() : MQTTProperties()
            let topic = try reader.readString("will topic")
            let payload = try reader.readBinary("will payload")
            will = MQTTWill(
                topic: topic, payload: payload, qos: willQoS, retain: willRetain, properties: willProperties)
        }
        let username = hasUsername ? try reader.readString("user name") : nil
        let password = hasPassword ? try reader.readBinary("password") : nil
        try reader.expectEnd()
        return MQTTConnect(
            protocolVersion: version, clientID: clientID, keepAliveSeconds: keepAlive,
            cleanSession: flags & 0x02 != 0, username: username, password: password, will: will,
            properties: properties)
    }
}
