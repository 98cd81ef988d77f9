/// Constants and small types of the btsnoop capture format (RFC 1761 "snoop" adapted for Bluetooth).
///
/// A file is a 16-byte header (`btsnoop\0`, version 1, datalink; big-endian) followed by records: a 24-byte
/// header (original length, included length, flags, cumulative drops, timestamp; big-endian) and the
/// packet bytes. Timestamps are microseconds since midnight, 1 January of year 0 AD.
public enum Btsnoop {
    /// The first 8 bytes of every btsnoop file.
    public static let magic: [UInt8] = Array("btsnoop\0".utf8)
    /// The size of the file header, bytes.
    static let fileHeaderLength = 16
    /// The size of a record header, bytes.
    static let recordHeaderLength = 24
    /// Microseconds from year 0 AD to the Unix epoch (1970-01-01T00:00:00Z).
    static let epochOffsetMicroseconds: Int64 = 0x00dc_ddb3_0f2f_8000
    /// The largest packet this reader accepts in one record, bytes (an HCI ACL packet is at most 65 539).
    static let maxRecordLength = 65_600

    /// Unix time in seconds of a btsnoop timestamp.
    @inline(__always)
    public static func unixTime(timestamp: Int64) -> Double {
        Double(timestamp &- epochOffsetMicroseconds) / 1_000_000
    }

    /// The btsnoop timestamp of a Unix time in seconds (rounded to the microsecond).
    public static func timestamp(unixTime seconds: Double) -> Int64 {
        let micros = (seconds * 1_000_000).rounded()
        guard micros.isFinite, abs(micros) < 9e18 else { return epochOffsetMicroseconds }
        return epochOffsetMicroseconds &+ Int64(micros)
    }

    /// Opcodes of the Linux monitor datalink (2001); the record flags hold `adapter index << 16 | opcode`.
    public enum MonitorOpcode {
        /// An adapter appeared: type, bus, address, 8-byte name.
        static let newIndex: UInt16 = 0
        /// An adapter went away.
        static let deleteIndex: UInt16 = 1
        /// An HCI command sent to the adapter.
        static let commandPacket: UInt16 = 2
        /// An HCI event from the adapter (advertising reports come in these).
        public static let eventPacket: UInt16 = 3
        /// ACL data sent.
        static let aclTransmit: UInt16 = 4
        /// ACL data received.
        static let aclReceive: UInt16 = 5
        /// A text note from the system.
        static let systemNote: UInt16 = 12
        /// A log message: priority, ident and text (NUL-terminated).
        static let userLogging: UInt16 = 13
    }

    /// The ident of the user-logging notes this package writes, and the message prefix that names an adapter.
    static let noteIdent = "indoor"
    static let adapterNamePrefix = "adapter-name "

    /// The H4 (UART) packet type of an HCI event.
    public static let h4EventType: UInt8 = 0x04
}
