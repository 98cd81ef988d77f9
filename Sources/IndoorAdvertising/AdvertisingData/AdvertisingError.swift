/// A problem found while decoding advertising data, an HCI event or a btsnoop capture.
///
/// The description names the byte offset in the capture (when known) and what was wrong, for example
/// `offset 1064: truncated record: header says 43 bytes of packet data, only 12 remain`.
public struct AdvertisingError: Error, Hashable, Sendable {
    /// What kind of problem this is; stable across releases, for programs that react to it.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name of the code, e.g. `truncatedRecord`.
        public let name: String
        /// A code named `name`.
        package init(_ name: String) { self.name = name }
        public var description: String { name }

        /// An AD structure runs past the end of the advertising data.
        public static let malformedAdvertisingData = Code("malformedAdvertisingData")
        /// An HCI event's lengths do not fit its bytes.
        public static let malformedEvent = Code("malformedEvent")
        /// The file does not start with a btsnoop header, or its version is unknown.
        public static let notBtsnoop = Code("notBtsnoop")
        /// The btsnoop datalink is not one this decoder reads.
        public static let unsupportedDatalink = Code("unsupportedDatalink")
        /// A record header is implausible (lengths, flags); bytes were skipped to the next plausible record.
        public static let corruptRecord = Code("corruptRecord")
        /// The capture ends inside a record.
        public static let truncatedRecord = Code("truncatedRecord")
        /// Fragments of an extended advertisement could not be put back together.
        public static let reassembly = Code("reassembly")
        /// A value cannot be encoded (too long, out of range).
        public static let encoding = Code("encoding")
    }

    /// What kind of problem this is.
    public var code: Code
    /// The byte offset, from the start of the capture file, of the record (or header) at fault, when known.
    public var offset: Int64?
    /// What was wrong, without the offset prefix.
    public var message: String

    /// A problem of kind `code` at byte `offset` of the capture (when known), described by `message`.
    public init(code: Code, offset: Int64? = nil, message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    /// The same error placed at `offset` (when it has none yet).
    public func at(offset: Int64) -> AdvertisingError {
        var copy = self
        copy.offset = copy.offset ?? offset
        return copy
    }
}

extension AdvertisingError: CustomStringConvertible {
    public var description: String {
        if let offset { return "offset \(offset): \(message)" }
        return message
    }
}
