/// Builds btsnoop captures: the file header, then records of HCI events (for fixtures, tests, the simulator).
public struct BtsnoopWriter: Sendable {
    /// How packets are framed in the records.
    public let datalink: BtsnoopDatalink
    /// The capture so far (file header first, unless taken with ``takeBytes()``).
    public private(set) var bytes: [UInt8]

    /// A capture with just its 16-byte file header.
    public init(datalink: BtsnoopDatalink = .hciUART) {
        self.datalink = datalink
        bytes = Btsnoop.magic
        bytes.appendU32BE(1)
        bytes.appendU32BE(datalink.rawValue)
    }

    /// Returns the bytes written so far and starts an empty buffer (to stream a large capture to a file).
    public mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// Appends one record.
    ///
    /// - Parameters:
    ///   - unixTime: seconds since 1970, stored as microseconds since year 0.
    ///   - originalLength: the length before capture truncation; the payload's length when nil.
    mutating func appendRecord(
        payload: [UInt8], flags: UInt32, unixTime seconds: Double, originalLength: UInt32? = nil, drops: UInt32 = 0
    ) {
        bytes.appendU32BE(originalLength ?? UInt32(payload.count))
        bytes.appendU32BE(UInt32(payload.count))
        bytes.appendU32BE(flags)
        bytes.appendU32BE(drops)
        bytes.appendU64BE(UInt64(bitPattern: Btsnoop.timestamp(unixTime: seconds)))
        bytes += payload
    }

    /// Appends an HCI event (event code first) received by adapter `adapter`, framed for the datalink.
    mutating func appendEvent(_ event: [UInt8], unixTime seconds: Double, adapter: UInt16 = 0) {
        switch datalink {
        case .hciUnencapsulated:
            appendRecord(payload: event, flags: 3, unixTime: seconds)
        case .hciUART:
            appendRecord(payload: [Btsnoop.h4EventType] + event, flags: 3, unixTime: seconds)
        case .linuxMonitor:
            appendRecord(
                payload: event, flags: UInt32(adapter) << 16 | UInt32(Btsnoop.MonitorOpcode.eventPacket),
                unixTime: seconds)
        }
    }

    /// Announces an adapter (Linux monitor "new index" record); does nothing for other datalinks.
    ///
    /// - Parameter name: up to 8 ASCII bytes (longer names are cut).
    public mutating func appendNewIndex(
        adapter: UInt16, address: BluetoothAddress, name: String, unixTime seconds: Double
    ) {
        guard datalink == .linuxMonitor else { return }
        var payload: [UInt8] = [0x00, 0x01]  // primary controller, USB
        payload += address.littleEndianBytes
        let nameBytes = Array(name.utf8.prefix(8))
        payload += nameBytes + [UInt8](repeating: 0, count: 8 - nameBytes.count)
        appendRecord(
            payload: payload, flags: UInt32(adapter) << 16 | UInt32(Btsnoop.MonitorOpcode.newIndex), unixTime: seconds)
    }

    /// Names an adapter with a Linux monitor user-logging record (ident `indoor`, message `adapter-name NAME`),
    /// for names that do not fit the 8 bytes of a "new index" record; does nothing for other datalinks.
    /// `btmon` shows it as a note; ``CaptureDecoder`` takes the name from it.
    mutating func appendAdapterName(adapter: UInt16, name: String, unixTime seconds: Double) {
        guard datalink == .linuxMonitor else { return }
        let ident = Array(Btsnoop.noteIdent.utf8) + [0]
        let payload = [6, UInt8(ident.count)] + ident + Array((Btsnoop.adapterNamePrefix + name).utf8) + [0]
        appendRecord(
            payload: payload, flags: UInt32(adapter) << 16 | UInt32(Btsnoop.MonitorOpcode.userLogging),
            unixTime: seconds)
    }

    /// Appends the reports as HCI events: legacy reports together in one LE Advertising Report event,
    /// extended reports each as LE Extended Advertising Report events (fragmented when long).
    ///
    /// - Throws: ``AdvertisingError`` (`encoding`) when the legacy reports do not fit one event.
    public mutating func appendAdvertisingReports(
        _ reports: [AdvertisingReport], unixTime seconds: Double, adapter: UInt16 = 0,
        fragmentLength: Int = HCIEvent.maxExtendedFragment
    ) throws {
        let legacy = reports.filter { $0.format == .legacy }
        if !legacy.isEmpty {
            appendEvent(try HCIEvent.legacyReportEvent(legacy), unixTime: seconds, adapter: adapter)
        }
        for report in reports where report.format == .extended {
            for event in HCIEvent.extendedReportEvents(report, fragmentLength: fragmentLength) {
                appendEvent(event, unixTime: seconds, adapter: adapter)
            }
        }
    }
}
