/// Reads the fields of one complete MQTT packet, front to back, with bounds checks.
///
/// Every read that would pass the end of the packet throws `MQTTProtocolError` naming the packet type, the
/// field, and the offset of the field from the packet's first byte.
struct MQTTByteReader {
    /// The whole packet, fixed header included (offsets count from its first byte).
    let bytes: ArraySlice<UInt8>
    /// Index into `bytes` of the next byte to read.
    private(set) var position: Int
    let packetType: MQTTPacketType

    init(packet bytes: ArraySlice<UInt8>, bodyOffset: Int, packetType: MQTTPacketType) {
        self.bytes = bytes
        self.position = bytes.startIndex + bodyOffset
        self.packetType = packetType
    }

    /// Offset of the next byte from the packet's first byte.
    var offset: Int { position - bytes.startIndex }
    var remainingCount: Int { bytes.endIndex - position }
    var isAtEnd: Bool { position >= bytes.endIndex }

    func error(_ problem: String, offset: Int? = nil) -> MQTTProtocolError {
        MQTTProtocolError(packetType: packetType.description, offset: offset ?? self.offset, problem: problem)
    }

    /// Throws unless every byte of the packet has been read.
    func expectEnd() throws {
        if !isAtEnd {
            throw error("\(remainingCount) unexpected byte(s) after the last field")
        }
    }

    mutating func readBytes(_ count: Int, field: String) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= remainingCount else {
            throw error("\(field) needs \(count) byte(s) but only \(remainingCount) remain in the packet")
        }
        let slice = bytes[position..<position + count]
        position += count
        return slice
    }

    mutating func readByte(_ field: String) throws -> UInt8 {
        let slice = try readBytes(1, field: field)
        return slice[slice.startIndex]
    }

    mutating func readUInt16(_ field: String) throws -> UInt16 {
        let slice = try readBytes(2, field: field)
        return UInt16(slice[slice.startIndex]) << 8 | UInt16(slice[slice.startIndex + 1])
    }

    mutating func readUInt32(_ field: String) throws -> UInt32 {
        let slice = try readBytes(4, field: field)
        return slice.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// A non-zero packet identifier.
    mutating func readPacketID() throws -> UInt16 {
        let start = offset
        let value = try readUInt16("packet identifier")
        if value == 0 { throw error("packet identifier is 0; it must be non-zero", offset: start) }
        return value
    }

    /// A variable byte integer (1 to 4 bytes, 7 bits each, least significant first, minimal encoding).
    mutating func readVariableByteInteger(_ field: String) throws -> UInt32 {
        let start = offset
        var value: UInt32 = 0
        for index in 0..<4 {
            let byte = try readByte(field)
            value |= UInt32(byte & 0x7F) << (7 * UInt32(index))
            if byte & 0x80 == 0 {
                if index > 0 && byte == 0 {
                    throw error("\(field) is not minimally encoded (a trailing zero byte)", offset: start)
                }
                return value
            }
        }
        throw error("\(field) is longer than 4 bytes", offset: start)
    }

    /// Binary data: a two-byte length, then that many bytes.
    mutating func readBinary(_ field: String) throws -> [UInt8] {
        let count = try readUInt16("length of \(field)")
        return Array(try readBytes(Int(count), field: field))
    }

    /// A UTF-8 string: a two-byte length, then that many bytes of well-formed UTF-8 without U+0000.
    mutating func readString(_ field: String) throws -> String {
        let count = try readUInt16("length of \(field)")
        let start = offset
        let slice = try readBytes(Int(count), field: field)
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw error("\(field) is not valid UTF-8", offset: start)
        }
        if slice.contains(0) { throw error("\(field) contains the null character U+0000", offset: start) }
        return text
    }

    /// The rest of the packet (a PUBLISH payload, a list of reason codes).
    mutating func readRest() -> [UInt8] {
        let rest = Array(bytes[position...])
        position = bytes.endIndex
        return rest
    }

    /// MQTT 5 properties: a variable byte integer length, then properties filling exactly that length.
    mutating func readProperties() throws -> MQTTProperties {
        let length = try readVariableByteInteger("properties length")
        guard Int(length) <= remainingCount else {
            throw error("properties length \(length) is past the end of the packet (\(remainingCount) remain)")
        }
        let end = position + Int(length)
        var properties: [MQTTProperty] = []
        while position < end {
            let identifierOffset = offset
            let identifier = try readByte("property identifier")
            guard let kind = MQTTProperty.kind(of: identifier) else {
                throw error(
                    "unknown property identifier 0x\(String(identifier, radix: 16))", offset: identifierOffset)
            }
            let name = "property 0x\(String(identifier, radix: 16))"
            let value: MQTTProperty.Value
            switch kind {
            case .byte: value = .byte(try readByte(name))
            case .twoByteInteger: value = .twoByteInteger(try readUInt16(name))
            case .fourByteInteger: value = .fourByteInteger(try readUInt32(name))
            case .variableByteInteger: value = .variableByteInteger(try readVariableByteInteger(name))
            case .string: value = .string(try readString(name))
            case .binary: value = .binary(try readBinary(name))
            case .stringPair: value = .stringPair(try readString(name + " key"), try readString(name + " value"))
            }
            if position > end {
                throw error(
                    "property 0x\(String(identifier, radix: 16)) runs past the properties length",
                    offset: identifierOffset)
            }
            properties.append(MQTTProperty(identifier: identifier, value: value))
        }
        return MQTTProperties(properties)
    }
}
