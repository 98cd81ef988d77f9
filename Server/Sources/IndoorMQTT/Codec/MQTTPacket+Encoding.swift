extension MQTTPacket {
    /// The packet's bytes on the wire, fixed header included, laid out for `version` (a CONNECT uses its own
    /// `protocolVersion`). MQTT 5 properties are left out for 3.1.1.
    ///
    /// Throws `MQTTProtocolError` for what cannot be written: a string or binary field over 65,535 bytes, a
    /// packet over 268,435,455 bytes, a missing or zero packet identifier where one is required, QoS 0 with DUP,
    /// or a SUBSCRIBE / UNSUBSCRIBE without filters.
    public func encode(version: MQTTProtocolVersion) throws -> [UInt8] {
        var writer = MQTTByteWriter(packetType: type)
        var flags: UInt8 = 0
        let isV5 = version == .v5
        switch self {
        case .connect(let connect):
            try Self.writeConnect(connect, to: &writer)
        case .connAck(let ack):
            writer.byte(ack.sessionPresent ? 1 : 0)
            writer.byte(ack.code)
            if isV5 { try writer.properties(ack.properties) }
        case .publish(let publish):
            if publish.duplicate && publish.qos == .atMostOnce {
                throw writer.error("the DUP flag cannot be set on a QoS 0 message")
            }
            flags = (publish.duplicate ? 0x08 : 0) | publish.qos.rawValue << 1 | (publish.retain ? 0x01 : 0)
            try writer.string(publish.topic, field: "topic name")
            if publish.qos != .atMostOnce {
                guard let packetID = publish.packetID else {
                    throw writer.error("a \(publish.qos) message needs a packet identifier")
                }
                try writer.packetID(packetID)
            }
            if isV5 { try writer.properties(publish.properties) }
            writer.raw(publish.payload)
        case .pubAck(let ack):
            try writer.packetID(ack.packetID)
            if isV5 && (ack.reasonCode != 0 || !ack.properties.isEmpty) {
                writer.byte(ack.reasonCode)
                if !ack.properties.isEmpty { try writer.properties(ack.properties) }
            }
        case .subscribe(let subscribe):
            flags = 0x02
            if subscribe.subscriptions.isEmpty { throw writer.error("a SUBSCRIBE needs at least one topic filter") }
            try writer.packetID(subscribe.packetID)
            if isV5 { try writer.properties(subscribe.properties) }
            for subscription in subscribe.subscriptions {
                try writer.string(subscription.topicFilter, field: "topic filter")
                writer.byte((isV5 ? subscription.options & 0x3C : 0) | subscription.qos.rawValue)
            }
        case .subAck(let ack):
            try writer.packetID(ack.packetID)
            if isV5 { try writer.properties(ack.properties) }
            writer.raw(ack.codes)
        case .unsubscribe(let unsubscribe):
            flags = 0x02
            if unsubscribe.topicFilters.isEmpty {
                throw writer.error("an UNSUBSCRIBE needs at least one topic filter")
            }
            try writer.packetID(unsubscribe.packetID)
            if isV5 { try writer.properties(unsubscribe.properties) }
            for filter in unsubscribe.topicFilters { try writer.string(filter, field: "topic filter") }
        case .unsubAck(let ack):
            try writer.packetID(ack.packetID)
            if isV5 {
                try writer.properties(ack.properties)
                writer.raw(ack.reasonCodes)
            }
        case .pingReq, .pingResp:
            break
        case .disconnect(let disconnect):
            if isV5 && (disconnect.reasonCode != 0 || !disconnect.properties.isEmpty) {
                writer.byte(disconnect.reasonCode)
                if !disconnect.properties.isEmpty { try writer.properties(disconnect.properties) }
            }
        }
        let body = writer.bytes
        guard body.count <= Int(MQTTByteWriter.maximumVariableByteInteger) else {
            throw writer.error("the packet body is \(body.count) bytes; at most 268,435,455 fit")
        }
        return [type.rawValue << 4 | flags] + MQTTByteWriter.encodeVariableByteInteger(UInt32(body.count)) + body
    }

    private static func writeConnect(_ connect: MQTTConnect, to writer: inout MQTTByteWriter) throws {
        let isV5 = connect.protocolVersion == .v5
        try writer.string("MQTT", field: "protocol name")
        writer.byte(connect.protocolVersion.rawValue)
        var flags: UInt8 = connect.cleanSession ? 0x02 : 0
        if let will = connect.will {
            flags |= 0x04 | will.qos.rawValue << 3 | (will.retain ? 0x20 : 0)
        }
        if connect.username != nil { flags |= 0x80 }
        if connect.password != nil {
            if !isV5 && connect.username == nil {
                throw writer.error("MQTT 3.1.1 cannot send a password without a user name")
            }
            flags |= 0x40
        }
        writer.byte(flags)
        writer.uint16(connect.keepAliveSeconds)
        if isV5 { try writer.properties(connect.properties) }
        try writer.string(connect.clientID, field: "client identifier")
        if let will = connect.will {
            if isV5 { try writer.properties(will.properties) }
            try writer.string(will.topic, field: "will topic")
            try writer.binary(will.payload, field: "will payload")
        }
        if let username = connect.username { try writer.string(username, field: "user name") }
        if let password = connect.password { try writer.binary(password, field: "password") }
    }
}
