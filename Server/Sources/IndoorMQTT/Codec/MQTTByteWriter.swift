/// Writes the fields of one MQTT packet's body (everything after the fixed header).
struct MQTTByteWriter {
    private(set) var bytes: [UInt8] = []
    let packetType: MQTTPacketType

    init(packetType: MQTTPacketType) {
        self.packetType = packetType
    }

    /// The largest value of a variable byte integer (four bytes of seven bits): 268,435,455.
    static let maximumVariableByteInteger: UInt32 = 268_435_455

    func error(_ problem: String) -> MQTTProtocolError {
        MQTTProtocolError(packetType: packetType.description, offset: nil, problem: problem)
    }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }

    mutating func raw(_ value: [UInt8]) { bytes.append(contentsOf: value) }

    mutating func variableByteInteger(_ value: UInt32, field: String) throws {
        guard value <= Self.maximumVariableByteInteger else {
            throw error("\(field) \(value) is larger than 268,435,455, the largest variable byte integer")
        }
        bytes.append(contentsOf: Self.encodeVariableByteInteger(value))
    }

    static func encodeVariableByteInteger(_ value: UInt32) -> [UInt8] {
        var rest = value
        var encoded: [UInt8] = []
        repeat {
            var byte = UInt8(rest & 0x7F)
            rest >>= 7
            if rest > 0 { byte |= 0x80 }
            encoded.append(byte)
        } while rest > 0
        return encoded
    }

    mutating func binary(_ value: [UInt8], field: String) throws {
        guard value.count <= Int(UInt16.max) else {
            throw error("\(field) is \(value.count) bytes; at most 65,535 fit")
        }
        uint16(UInt16(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func string(_ value: String, field: String) throws {
        let utf8 = Array(value.utf8)
        if utf8.contains(0) { throw error("\(field) contains the null character U+0000") }
        try binary(utf8, field: field)
    }

    mutating func packetID(_ value: UInt16) throws {
        if value == 0 { throw error("packet identifier is 0; it must be non-zero") }
        uint16(value)
    }

    mutating func properties(_ properties: MQTTProperties) throws {
        var inner = MQTTByteWriter(packetType: packetType)
        for property in properties.all {
            inner.byte(property.identifier)
            let name = "property 0x\(String(property.identifier, radix: 16))"
            switch property.value {
            case .byte(let value): inner.byte(value)
            case .twoByteInteger(let value): inner.uint16(value)
            case .fourByteInteger(let value): inner.uint32(value)
            case .variableByteInteger(let value): try inner.variableByteInteger(value, field: name)
            case .string(let value): try inner.string(value, field: name)
            case .binary(let value): try inner.binary(value, field: name)
            case .stringPair(let key, let value):
                try inner.string(key, field: name + " key")
                try inner.string(value, field: name + " value")
            }
        }
        try variableByteInteger(UInt32(clamping: inner.bytes.count), field: "properties length")
        bytes.append(contentsOf: inner.bytes)
    }
}
