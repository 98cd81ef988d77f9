/// A pure, incremental btsnoop parser: give it bytes as they arrive, take records out.
///
/// It holds no buffer of its own: the caller keeps the bytes from the index the parser stopped at, adds more,
/// and calls again (``BtsnoopReader`` does this with a file in fixed-size chunks, so memory stays constant).
///
/// Corrupt framing is survived where possible: a record header whose lengths or flags are impossible starts a
/// search, byte by byte, for the next plausible record (sane lengths and flags, a timestamp between 1970 and
/// 2170, and a plausible header right after it); the skipped range is reported once it is known.
public struct BtsnoopParser: Sendable {
    /// One record, borrowing the caller's bytes: valid only until the next call.
    public struct Record {
        /// Byte offset of the record header from the start of the file.
        public var offset: Int64
        /// The packet's length before the capture truncated it, bytes.
        public var originalLength: UInt32
        /// HCI and H4: bit 0 received (1) or sent (0), bit 1 command/event; Linux monitor: adapter index << 16 | opcode.
        public var flags: UInt32
        /// Packets dropped by the capture so far.
        public var cumulativeDrops: UInt32
        /// Microseconds since year 0 AD (see ``Btsnoop/unixTime(timestamp:)``).
        public var timestamp: Int64
        /// The included packet bytes.
        public var payload: UnsafeRawBufferPointer
    }

    /// What ``next(in:at:isEnd:)`` found.
    public enum Step {
        case record(Record)
        /// A problem; parsing can go on.
        case problem(AdvertisingError)
        /// Keep the bytes from the index on, add more, and call again.
        case needMoreData
        /// All bytes are parsed (only when `isEnd`).
        case end
    }

    enum State: Sendable {
        case fileHeader
        case records
        /// Looking for a plausible record header after a bad one.
        case resynchronizing(start: Int64, reason: String)
    }

    var state: State = .fileHeader
    /// The datalink from the file header, once read.
    public private(set) var datalink: BtsnoopDatalink?
    /// Byte offset, from the start of the file, of the next byte to parse.
    public private(set) var offset: Int64 = 0

    /// A parser expecting the 16-byte file header first.
    public init() {}

    /// Parses the next item from `buffer[index...]`, advancing `index` past what was used.
    ///
    /// - Parameters:
    ///   - isEnd: true when no bytes will follow those in `buffer` (end of file).
    /// - Throws: ``AdvertisingError`` (`notBtsnoop`, `unsupportedDatalink`) when the file header is wrong;
    ///   nothing can be read then.
    public mutating func next(in buffer: UnsafeRawBufferPointer, at index: inout Int, isEnd: Bool) throws -> Step {
        while true {
            let remaining = buffer.count - index
            switch state {
            case .fileHeader:
                guard remaining >= Btsnoop.fileHeaderLength else {
                    if !isEnd { return .needMoreData }
                    throw AdvertisingError(
                        code: .notBtsnoop, offset: 0,
                        message: "not a btsnoop file: \(remaining) bytes, shorter than the 16-byte file header")
                }
                for position in 0..<8 where buffer[index + position] != Btsnoop.magic[position] {
                    throw AdvertisingError(
                        code: .notBtsnoop, offset: 0, message: "not a btsnoop file: it does not start with 'btsnoop\\0'"
                    )
                }
                let version = buffer.u32be(index + 8)
                guard version == 1 else {
                    throw AdvertisingError(
                        code: .notBtsnoop, offset: 8, message: "btsnoop version \(version) is not supported (only 1)")
                }
                let code = buffer.u32be(index + 12)
                guard let link = BtsnoopDatalink(rawValue: code) else {
                    throw AdvertisingError(
                        code: .unsupportedDatalink, offset: 12,
                        message: "btsnoop datalink \(code) is not supported (1001 HCI, 1002 H4, 2001 Linux monitor)")
                }
                datalink = link
                advance(&index, by: Btsnoop.fileHeaderLength)
                state = .records

            case .records:
                guard remaining >= Btsnoop.recordHeaderLength else {
                    if !isEnd { return .needMoreData }
                    if remaining == 0 { return .end }
                    let problem = AdvertisingError(
                        code: .truncatedRecord, offset: offset,
                        message: "truncated record header: only \(remaining) of 24 bytes at the end of the file")
                    advance(&index, by: remaining)
                    return .problem(problem)
                }
                if let reason = headerProblem(buffer, at: index) {
                    state = .resynchronizing(start: offset, reason: reason)
                    advance(&index, by: 1)
                    continue
                }
                let included = Int(buffer.u32be(index + 4))
                guard remaining >= Btsnoop.recordHeaderLength + included else {
                    if !isEnd { return .needMoreData }
                    let problem = AdvertisingError(
                        code: .truncatedRecord, offset: offset,
                        message:
                            "truncated record: header says \(included) bytes of packet data, only \(remaining - Btsnoop.recordHeaderLength) remain"
                    )
                    advance(&index, by: remaining)
                    return .problem(problem)
                }
                let record = Record(
                    offset: offset, originalLength: buffer.u32be(index), flags: buffer.u32be(index + 8),
                    cumulativeDrops: buffer.u32be(index + 12), timestamp: Int64(bitPattern: buffer.u64be(index + 16)),
                    payload: buffer.slice(index + Btsnoop.recordHeaderLength, included))
                advance(&index, by: Btsnoop.recordHeaderLength + included)
                return .record(record)

            case .resynchronizing(let start, let reason):
                switch candidate(buffer, at: index, isEnd: isEnd) {
                case .needMoreData:
                    return .needMoreData
                case .no:
                    if remaining == 0 {
                        state = .records
                        return .problem(
                            AdvertisingError(
                                code: .corruptRecord, offset: start,
                                message:
                                    "\(reason); no valid record follows (\(offset - start) bytes skipped to the end of the file)"
                            ))
                    }
                    advance(&index, by: 1)
                case .yes:
                    state = .records
                    return .problem(
                        AdvertisingError(
                            code: .corruptRecord, offset: start,
                            message:
                                "\(reason); skipped \(offset - start) bytes to the next valid record at offset \(offset)"
                        ))
                }
            }
        }
    }

    @inline(__always)
    mutating func advance(_ index: inout Int, by count: Int) {
        index += count
        offset += Int64(count)
    }

    /// Why the record header at `index` is impossible, or nil when it is fine.
    @inline(__always)
    func headerProblem(_ buffer: UnsafeRawBufferPointer, at index: Int) -> String? {
        let original = buffer.u32be(index)
        let included = buffer.u32be(index + 4)
        let flags = buffer.u32be(index + 8)
        if included > original {
            return "corrupt record header: included length \(included) exceeds original length \(original)"
        }
        if included > Btsnoop.maxRecordLength {
            return "corrupt record header: included length \(included) exceeds \(Btsnoop.maxRecordLength)"
        }
        switch datalink {
        case .linuxMonitor:
            if flags & 0xFFFF > 0x40 { return "corrupt record header: monitor opcode \(flags & 0xFFFF) is unknown" }
        case .hciUnencapsulated, .hciUART, nil:
            if flags > 3 { return "corrupt record header: flags 0x\(String(flags, radix: 16)) has unknown bits" }
        }
        return nil
    }

    enum Candidate { case yes, no, needMoreData }

    /// Whether a plausible record starts at `index` (used only after corruption, so it is strict).
    func candidate(_ buffer: UnsafeRawBufferPointer, at index: Int, isEnd: Bool) -> Candidate {
        let remaining = buffer.count - index
        guard remaining >= Btsnoop.recordHeaderLength else { return isEnd ? .no : .needMoreData }
        guard strictlyPlausible(buffer, at: index) else { return .no }
        let next = index + Btsnoop.recordHeaderLength + Int(buffer.u32be(index + 4))
        if next > buffer.count { return isEnd ? .no : .needMoreData }
        if next == buffer.count { return isEnd ? .yes : .needMoreData }
        if buffer.count - next < Btsnoop.recordHeaderLength { return isEnd ? .yes : .needMoreData }
        return strictlyPlausible(buffer, at: next) ? .yes : .no
    }

    func strictlyPlausible(_ buffer: UnsafeRawBufferPointer, at index: Int) -> Bool {
        guard headerProblem(buffer, at: index) == nil else { return false }
        let included = Int(buffer.u32be(index + 4))
        let timestamp = Int64(bitPattern: buffer.u64be(index + 16))
        let twoCenturies: Int64 = 200 * 366 * 86_400 * 1_000_000
        guard included > 0, timestamp >= Btsnoop.epochOffsetMicroseconds,
            timestamp <= Btsnoop.epochOffsetMicroseconds + twoCenturies
        else { return false }
        if datalink == .hciUART, index + Btsnoop.recordHeaderLength < buffer.count {
            let type = buffer[index + Btsnoop.recordHeaderLength]
            return type >= 1 && type <= 5
        }
        return true
    }
}
