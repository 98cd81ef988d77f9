import IndoorAdvertising
import IndoorGateways

/// Turns btsnoop bytes, as they arrive, into the sightings a gateway forwards.
///
/// It reads the records with ``BtsnoopParser``, takes the LE advertising reports out of HCI events (H4, HCI and
/// Linux monitor datalinks, extended fragments reassembled) and names each advertiser:
/// - a beacon frame (iBeacon, AltBeacon, Eddystone UID/URL/EID) by its identity, as `indoor decode` names it;
/// - any other advertisement from a resolvable private address by the device whose identity resolving key
///   resolves it (`--irks`); one no key resolves is dropped and counted;
/// - any other advertisement from a public or static random address by its address, only with `--addresses`.
/// Eddystone TLM frames and reports without RSSI give no sighting. Pure: bytes in, sightings out.
struct GatewayDecoder: Sendable {
    /// Counts of what was read, for the status line.
    struct Counts: Hashable, Sendable {
        /// btsnoop records read.
        var records = 0
        /// Advertising reports seen.
        var reports = 0
        /// Sightings produced.
        var sightings = 0
        /// Non-beacon advertisements from random addresses no key resolves (counted with `--irks` or
        /// `--addresses` only).
        var unresolved = 0
        /// Records or reports skipped because they were corrupt.
        var problems = 0
    }

    /// The gateway's node id, written into every sighting.
    let node: String
    /// Keys that name resolvable private addresses, if any.
    let resolver: IRKResolver?
    /// Whether non-beacon advertisements are forwarded under their address.
    let addresses: Bool
    private(set) var counts = Counts()
    private var parser = BtsnoopParser()
    private var assembler = ExtendedAdvertisingAssembler()

    init(node: String, resolver: IRKResolver?, addresses: Bool) {
        self.node = node
        self.resolver = resolver
        self.addresses = addresses
    }

    /// Decodes what it can of `buffer`, the stream's bytes from where the previous call stopped.
    ///
    /// - Parameter isEnd: true when no more bytes will follow.
    /// - Returns: How many bytes were used; offer the rest again with more bytes.
    /// - Throws: ``AdvertisingError`` when the stream does not start with a btsnoop header.
    mutating func decode(
        _ buffer: UnsafeRawBufferPointer, isEnd: Bool, onSighting: (ForwardedSighting) -> Void,
        onProblem: (AdvertisingError) -> Void
    ) throws -> Int {
        var index = 0
        while true {
            switch try parser.next(in: buffer, at: &index, isEnd: isEnd) {
            case .record(let record):
                counts.records += 1
                handle(record, onSighting: onSighting, onProblem: onProblem)
            case .problem(let problem):
                counts.problems += 1
                onProblem(problem)
            case .needMoreData, .end:
                return index
            }
        }
    }

    /// Whether the btsnoop file header has been read.
    var hasHeader: Bool { parser.datalink != nil }

    private mutating func handle(
        _ record: BtsnoopParser.Record, onSighting: (ForwardedSighting) -> Void,
        onProblem: (AdvertisingError) -> Void
    ) {
        let payload = record.payload
        let event: UnsafeRawBufferPointer
        switch parser.datalink {
        case .hciUART:
            guard payload.count > 1, payload[0] == Btsnoop.h4EventType else { return }
            event = UnsafeRawBufferPointer(rebasing: payload[1...])
        case .hciUnencapsulated:
            guard record.flags & 3 == 3 else { return }
            event = payload
        case .linuxMonitor:
            guard UInt16(truncatingIfNeeded: record.flags) == Btsnoop.MonitorOpcode.eventPacket else { return }
            event = payload
        case nil:
            return
        }
        guard event.count >= 3, event[0] == HCIEvent.leMetaEvent else { return }
        guard event[2] == HCIEvent.legacyAdvertisingReport || event[2] == HCIEvent.extendedAdvertisingReport else {
            return
        }
        let (reports, problems) = HCIEvent.advertisingReports(event: Array(event), assembler: &assembler)
        counts.problems += problems.count
        for problem in problems { onProblem(problem) }
        let time = (Btsnoop.unixTime(timestamp: record.timestamp) * 1_000_000).rounded() / 1_000_000
        for report in reports {
            counts.reports += 1
            guard let rssi = report.rssi, let named = name(report) else { continue }
            counts.sightings += 1
            onSighting(ForwardedSighting(t: time, device: named.device, node: node, rssi: Int(rssi), tx: named.tx))
        }
    }

    /// The device id and power at 1 m (dBm) of a report, or nil when it is not forwarded.
    private mutating func name(_ report: AdvertisingReport) -> (device: String, tx: Int?)? {
        if let frame = try? BeaconFrame.decode(advertisingData: report.data) {
            guard let identity = frame.identity else { return nil }
            return (identity.text, frame.powerAtOneMeter)
        }
        guard resolver != nil || addresses else { return nil }
        let isRandom = report.addressType & 1 == 1
        let topBits = report.address.rawValue >> 46
        if isRandom && topBits != 0b11 {
            // A resolvable (01) or non-resolvable (00) private address: only a key can name it.
            if let device = resolver?.resolve(report.address) { return (device, nil) }
            counts.unresolved += 1
            return nil
        }
        return addresses ? (report.address.text, nil) : nil
    }
}
