/// One AD structure of Bluetooth LE advertising data: a type and its data bytes.
///
/// On the air each structure is `length, type, data…` where `length` counts the type byte and the data.
public struct ADStructure: Hashable, Sendable {
    /// The AD type (see ``ADType``).
    public var type: UInt8
    /// The data bytes, without the length and type bytes.
    public var data: [UInt8]

    /// A structure of `type` (see ``ADType``) holding `data` (at most 254 bytes to be encodable by ``encode(_:)``).
    public init(type: UInt8, data: [UInt8]) {
        self.type = type
        self.data = data
    }

    /// Splits advertising data into its AD structures.
    ///
    /// A length byte of 0 ends the significant part (the rest is padding).
    /// - Throws: ``AdvertisingError`` (`malformedAdvertisingData`) when a structure runs past the end.
    public static func parse(_ advertisingData: [UInt8]) throws -> [ADStructure] {
        var result: [ADStructure] = []
        try advertisingData.withUnsafeBytes { buffer in
            try forEach(in: buffer) { type, data in
                result.append(ADStructure(type: type, data: Array(data)))
            }
        }
        return result
    }

    /// Advertising data made of `structures`, in order.
    ///
    /// - Throws: ``AdvertisingError`` (`encoding`) when a structure's data is longer than 254 bytes.
    public static func encode(_ structures: [ADStructure]) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for structure in structures {
            guard structure.data.count <= 254 else {
                throw AdvertisingError(
                    code: .encoding,
                    message:
                        "AD structure of type 0x\(hexString([structure.type])) has \(structure.data.count) data bytes; at most 254 fit"
                )
            }
            bytes.append(UInt8(structure.data.count + 1))
            bytes.append(structure.type)
            bytes.append(contentsOf: structure.data)
        }
        return bytes
    }

    /// Calls `body` with each structure's type and data, without copying.
    ///
    /// - Throws: ``AdvertisingError`` (`malformedAdvertisingData`) when a structure runs past the end;
    ///   `body` has then been called for the structures before it.
    @inline(__always)
    static func forEach(
        in buffer: UnsafeRawBufferPointer, _ body: (UInt8, UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var index = 0
        let count = buffer.count
        while index < count {
            let length = Int(buffer[index])
            if length == 0 { return }
            guard index + 1 + length <= count else {
                throw AdvertisingError(
                    code: .malformedAdvertisingData,
                    message:
                        "AD structure at byte \(index) of the advertising data has length \(length) but only \(count - index - 1) bytes follow"
                )
            }
            try body(buffer[index + 1], buffer.slice(index + 2, length - 1))
            index += 1 + length
        }
    }
}
