/// Decodes a btsnoop capture into beacon advertisements, incrementally and in constant memory.
///
/// It chains ``BtsnoopParser`` (records), the datalink (H4 type byte, monitor opcodes), ``HCIEvent``
/// (advertising reports, with ``ExtendedAdvertisingAssembler`` for fragments) and ``BeaconFrame``.
/// Eddystone TLM frames are attached to the identity frames heard from the same address.
/// Pure: bytes in, advertisements and problems out; ``BtsnoopReader`` feeds it from a file.
public struct CaptureDecoder: Sendable {
    /// Counts of what was seen so far.
    public struct Statistics: Hashable, Sendable {
        /// btsnoop records read.
        public var records = 0
        /// Advertising reports found in HCI events (after reassembly of extended fragments).
        public var advertisingReports = 0
        /// Reports that held a beacon frame.
        public var beaconAdvertisements = 0
        /// Problems reported (each one skipped a record, a report or an advertisement).
        public var problems = 0
    }

    /// The record parser (its datalink and byte offset).
    public private(set) var parser = BtsnoopParser()
    /// Counts of what was decoded so far.
    public private(set) var statistics = Statistics()
    /// Adapter names announced by Linux monitor "new index" records (`hci0`), by index.
    public private(set) var adapterNames: [UInt16: String] = [:]
    /// Adapter names by index, for the first 256 indexes (the hot path's copy of `adapterNames`).
    var namesByIndex: [String?] = []
    var assembler = ExtendedAdvertisingAssembler()
    var memory = TelemetryMemory()

    /// A decoder at the start of a capture (its file header first).
    public init() {}

    /// The datalink, once the file header is read.
    public var datalink: BtsnoopDatalink? { parser.datalink }

    /// Decodes what it can of `buffer`.
    ///
    /// - Parameters:
    ///   - buffer: the capture's bytes from where the previous call stopped.
    ///   - isEnd: true when no more bytes will follow.
    /// - Returns: How many bytes of `buffer` were used; offer the rest again with more bytes.
    /// - Throws: ``AdvertisingError`` when the file header is wrong (nothing can be decoded).
    public mutating func decode(
        _ buffer: UnsafeRawBufferPointer, isEnd: Bool,
        onAdvertisement: (BeaconAdvertisement) -> Void, onProblem: (AdvertisingError) -> Void
    ) throws -> Int {
        var index = 0
        while true {
            switch try parser.next(in: buffer, at: &index, isEnd: isEnd) {
            case .record(let record):
                statistics.records += 1
                handle(record, onAdvertisement: onAdvertisement, onProblem: onProblem)
            case .problem(let problem):
                statistics.problems += 1
                onProblem(problem)
            case .needMoreData, .end:
                return index
            }
        }
    }

    /// Decodes a whole capture held in memory.
    public static func decode(
        capture: [UInt8], onAdvertisement: (BeaconAdvertisement) -> Void, onProblem: (AdvertisingError) -> Void
    ) throws -> Statistics {
        var decoder = CaptureDecoder()
        _ = try capture.withUnsafeBytes { buffer in
            try decoder.decode(buffer, isEnd: true, onAdvertisement: onAdvertisement, onProblem: onProblem)
        }
        return decoder.statistics
    }

    @inline(__always)
    mutating func handle(
        _ record: BtsnoopParser.Record, onAdvertisement: (BeaconAdvertisement) -> Void,
        onProblem: (AdvertisingError) -> Void
    ) {
        let payload = record.payload
        var adapter: UInt16?
        let event: UnsafeRawBufferPointer
        switch parser.datalink {
        case .hciUART:
            guard payload.count > 1, payload[0] == Btsnoop.h4EventType else { return }
            event = payload.slice(1, payload.count - 1)
        case .hciUnencapsulated:
            guard record.flags & 3 == 3 else { return }
            event = payload
        case .linuxMonitor:
            let opcode = UInt16(truncatingIfNeeded: record.flags)
            let index = UInt16(truncatingIfNeeded: record.flags >> 16)
            if opcode == Btsnoop.MonitorOpcode.newIndex {
                noteNewIndex(index, payload)
                return
            }
            if opcode == Btsnoop.MonitorOpcode.userLogging {
                noteUserLogging(index, payload)
                return
            }
            guard opcode == Btsnoop.MonitorOpcode.eventPacket else { return }
            adapter = index
            event = payload
        case nil:
            return
        }
        guard event.count >= 3, event[0] == HCIEvent.leMetaEvent, event[1] >= 1 else { return }
        let time = Btsnoop.unixTime(timestamp: record.timestamp)
        let offset = record.offset
        var problems: [AdvertisingError] = []
        if event[2] == HCIEvent.extendedAdvertisingReport {
            var assembler = self.assembler
            self.assembler = ExtendedAdvertisingAssembler()
            HCIEvent.forEachReport(
                event: event, assembler: &assembler,
                onReport: { report(time, adapter, offset, $0, onAdvertisement, &problems) },
                onProblem: { problems.append($0.at(offset: offset)) })
            self.assembler = assembler
        } else if event[2] == HCIEvent.legacyAdvertisingReport {
            let length = Int(event[1])
            guard length + 2 <= event.count else {
                problems.append(
                    AdvertisingError(
                        code: .malformedEvent, offset: offset,
                        message: "HCI event parameter length \(length) exceeds the \(event.count - 2) bytes present"))
                return flush(problems, onProblem)
            }
            HCIEvent.forEachLegacyReport(
                event.slice(2, length),
                onReport: { report(time, adapter, offset, $0, onAdvertisement, &problems) },
                onProblem: { problems.append($0.at(offset: offset)) })
        }
        if !problems.isEmpty { flush(problems, onProblem) }
    }

    mutating func flush(_ problems: [AdvertisingError], _ onProblem: (AdvertisingError) -> Void) {
        statistics.problems += problems.count
        for problem in problems { onProblem(problem) }
    }

    @inline(__always)
    mutating func report(
        _ time: Double, _ adapter: UInt16?, _ offset: Int64, _ view: ReportView,
        _ onAdvertisement: (BeaconAdvertisement) -> Void, _ problems: inout [AdvertisingError]
    ) {
        statistics.advertisingReports += 1
        let frame: BeaconFrame?
        do {
            frame = try BeaconFrame.decode(view.data)
        } catch let error as AdvertisingError {
            // A controller that truncated the data (extended data status 2) may cut a structure short.
            if view.dataComplete {
                problems.append(
                    AdvertisingError(
                        code: error.code, offset: offset,
                        message: "advertisement from \(view.address): \(error.message)"))
            }
            return
        } catch {
            return
        }
        guard let frame else { return }
        var advertisement = BeaconAdvertisement(
            time: time, adapter: adapter, address: view.address, addressType: view.addressType, frame: frame,
            rssiDBm: view.rssi == 127 ? nil : Int(view.rssi),
            reportedTxPowerDBm: view.txPower == 127 ? nil : Int(view.txPower))
        if let adapter { advertisement.adapterName = name(adapter) }
        if frame.isEddystone { memory.remember(&advertisement) }
        statistics.beaconAdvertisements += 1
        onAdvertisement(advertisement)
    }

    mutating func noteNewIndex(_ index: UInt16, _ payload: UnsafeRawBufferPointer) {
        // type (1), bus (1), address (6), name (8, NUL-padded)
        guard payload.count >= 16 else { return }
        setName(index, text(payload.slice(8, 8)))
    }

    /// A user-logging record with ident `indoor` and the message `adapter-name NAME` names adapter `index`
    /// (``BtsnoopWriter/appendAdapterName(adapter:name:unixTime:)`` writes it for names longer than 8 bytes).
    mutating func noteUserLogging(_ index: UInt16, _ payload: UnsafeRawBufferPointer) {
        // priority (1), ident length (1), ident (NUL-terminated), message (NUL-terminated)
        guard payload.count >= 2 else { return }
        let identLength = Int(payload[1])
        guard payload.count >= 2 + identLength, text(payload.slice(2, identLength)) == Btsnoop.noteIdent else { return }
        let message = text(payload.slice(2 + identLength, payload.count - 2 - identLength))
        guard let message, message.hasPrefix(Btsnoop.adapterNamePrefix) else { return }
        setName(index, String(message.dropFirst(Btsnoop.adapterNamePrefix.count)))
    }

    /// UTF-8 text up to the first NUL; nil when it is not valid UTF-8.
    func text(_ bytes: UnsafeRawBufferPointer) -> String? {
        let end = bytes.firstIndex(of: 0) ?? bytes.count
        let text = String(decoding: bytes.prefix(end), as: UTF8.self)
        return text.unicodeScalars.contains("\u{FFFD}") ? nil : text
    }

    /// Keeps a name that can be a device id (no control characters or commas, at most 64 bytes).
    mutating func setName(_ index: UInt16, _ name: String?) {
        guard let name, !name.isEmpty, name.utf8.count <= 64,
            name.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && $0 != "," }),
            adapterNames.count < 1024 || adapterNames[index] != nil
        else { return }
        adapterNames[index] = name
        if index < 256 {
            if namesByIndex.count <= Int(index) {
                namesByIndex += [String?](repeating: nil, count: Int(index) + 1 - namesByIndex.count)
            }
            namesByIndex[Int(index)] = name
        }
    }

    @inline(__always)
    func name(_ index: UInt16) -> String? {
        Int(index) < namesByIndex.count ? namesByIndex[Int(index)] : adapterNames[index]
    }
}
