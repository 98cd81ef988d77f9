/// HCI events that carry advertising reports: LE Meta event (0x3E) subevents 0x02 (LE Advertising Report)
/// and 0x0D (LE Extended Advertising Report); decoding and encoding.
///
/// An event here is its bytes without the H4 packet type: event code, parameter length, parameters.
public enum HCIEvent {
    /// The LE Meta event code.
    public static let leMetaEvent: UInt8 = 0x3E
    /// The LE Advertising Report subevent code.
    public static let legacyAdvertisingReport: UInt8 = 0x02
    /// The LE Extended Advertising Report subevent code.
    public static let extendedAdvertisingReport: UInt8 = 0x0D
    /// The size of an extended report before its data, bytes.
    static let extendedReportHeader = 24
    /// The most data one extended report in one event can carry (255 − subevent, count and header bytes).
    public static let maxExtendedFragment = 255 - 2 - 24

    /// The advertising reports in one event.
    ///
    /// Events other than LE advertising reports give no reports. Fragments of extended advertisements are
    /// kept in `assembler` until complete. Reports before a length error are kept.
    /// - Returns: The reports, and the problems (lengths that do not fit, dropped fragments).
    public static func advertisingReports(
        event: [UInt8], assembler: inout ExtendedAdvertisingAssembler
    ) -> (reports: [AdvertisingReport], problems: [AdvertisingError]) {
        var reports: [AdvertisingReport] = []
        var problems: [AdvertisingError] = []
        event.withUnsafeBytes { buffer in
            forEachReport(
                event: buffer, assembler: &assembler, onReport: { reports.append($0.report) },
                onProblem: { problems.append($0) })
        }
        return (reports, problems)
    }

    /// Calls `onReport` for each complete advertising report in `event`.
    @inline(__always)
    static func forEachReport(
        event: UnsafeRawBufferPointer, assembler: inout ExtendedAdvertisingAssembler,
        onReport: (ReportView) -> Void, onProblem: (AdvertisingError) -> Void
    ) {
        guard event.count >= 3, event[0] == leMetaEvent else { return }
        let length = Int(event[1])
        guard length + 2 <= event.count else {
            onProblem(
                AdvertisingError(
                    code: .malformedEvent,
                    message: "HCI event parameter length \(length) exceeds the \(event.count - 2) bytes present"))
            return
        }
        guard length >= 1 else { return }
        let parameters = event.slice(2, length)
        switch parameters[0] {
        case legacyAdvertisingReport:
            forEachLegacyReport(parameters, onReport: onReport, onProblem: onProblem)
        case extendedAdvertisingReport:
            forEachExtendedReport(parameters, assembler: &assembler, onReport: onReport, onProblem: onProblem)
        default:
            return
        }
    }

    /// Legacy reports, laid out one after another: event type, address type, address (6),
    /// data length, data, RSSI.
    @inline(__always)
    static func forEachLegacyReport(
        _ parameters: UnsafeRawBufferPointer, onReport: (ReportView) -> Void, onProblem: (AdvertisingError) -> Void
    ) {
        guard parameters.count >= 2 else {
            onProblem(
                AdvertisingError(code: .malformedEvent, message: "LE Advertising Report event without a report count"))
            return
        }
        let count = Int(parameters[1])
        var index = 2
        for number in 0..<count {
            guard index + 9 <= parameters.count else {
                onProblem(truncatedReport("LE Advertising Report", number, count, at: index))
                return
            }
            let dataLength = Int(parameters[index + 8])
            guard index + 10 + dataLength <= parameters.count else {
                onProblem(truncatedReport("LE Advertising Report", number, count, at: index))
                return
            }
            onReport(
                ReportView(
                    format: .legacy, eventType: UInt16(parameters[index]), addressType: parameters[index + 1],
                    address: BluetoothAddress(littleEndian: parameters, at: index + 2),
                    rssi: parameters.i8(index + 9 + dataLength), txPower: 127, sid: 0xFF, dataComplete: true,
                    data: parameters.slice(index + 9, dataLength)))
            index += 10 + dataLength
        }
    }

    @inline(__always)
    static func forEachExtendedReport(
        _ parameters: UnsafeRawBufferPointer, assembler: inout ExtendedAdvertisingAssembler,
        onReport: (ReportView) -> Void, onProblem: (AdvertisingError) -> Void
    ) {
        guard parameters.count >= 2 else {
            onProblem(
                AdvertisingError(
                    code: .malformedEvent, message: "LE Extended Advertising Report event without a report count"))
            return
        }
        let count = Int(parameters[1])
        var index = 2
        for number in 0..<count {
            guard index + extendedReportHeader <= parameters.count else {
                onProblem(truncatedReport("LE Extended Advertising Report", number, count, at: index))
                return
            }
            let dataLength = Int(parameters[index + 23])
            guard index + extendedReportHeader + dataLength <= parameters.count else {
                onProblem(truncatedReport("LE Extended Advertising Report", number, count, at: index))
                return
            }
            let view = ReportView(
                format: .extended, eventType: parameters.u16le(index), addressType: parameters[index + 2],
                address: BluetoothAddress(littleEndian: parameters, at: index + 3),
                rssi: parameters.i8(index + 13), txPower: parameters.i8(index + 12), sid: parameters[index + 11],
                dataComplete: true, data: parameters.slice(index + extendedReportHeader, dataLength))
            if let problem = assembler.take(view, onReport) { onProblem(problem) }
            index += extendedReportHeader + dataLength
        }
    }

    static func truncatedReport(_ name: String, _ number: Int, _ count: Int, at index: Int) -> AdvertisingError {
        AdvertisingError(
            code: .malformedEvent,
            message:
                "\(name) event: report \(number + 1) of \(count) runs past the end of the event (at parameter byte \(index))"
        )
    }

    /// An LE Advertising Report event (event code first) holding `reports`.
    ///
    /// - Throws: ``AdvertisingError`` (`encoding`) when the reports do not fit one event (255 parameter bytes).
    static func legacyReportEvent(_ reports: [AdvertisingReport]) throws -> [UInt8] {
        var parameters: [UInt8] = [legacyAdvertisingReport, UInt8(truncatingIfNeeded: reports.count)]
        for report in reports {
            guard report.data.count <= 255 else { throw tooLong(report.data.count) }
            parameters.append(UInt8(truncatingIfNeeded: report.eventType))
            parameters.append(report.addressType)
            parameters += report.address.littleEndianBytes
            parameters.append(UInt8(report.data.count))
            parameters += report.data
            parameters.append(UInt8(bitPattern: report.rssi ?? 127))
        }
        guard reports.count <= 255, parameters.count <= 255 else { throw tooLong(parameters.count) }
        return [leMetaEvent, UInt8(parameters.count)] + parameters
    }

    /// LE Extended Advertising Report events (event code first) for one report, its data split into fragments
    /// of at most `fragmentLength` bytes with the data status bits set (1 on all but the last).
    static func extendedReportEvents(_ report: AdvertisingReport, fragmentLength: Int = maxExtendedFragment)
        -> [[UInt8]]
    {
        let size = max(1, min(fragmentLength, maxExtendedFragment))
        var events: [[UInt8]] = []
        var start = 0
        repeat {
            let end = min(report.data.count, start + size)
            let last = end == report.data.count
            var parameters: [UInt8] = [extendedAdvertisingReport, 1]
            parameters.appendU16LE((report.eventType & ~0x60) | (last ? 0 : 0x20))
            parameters.append(report.addressType)
            parameters += report.address.littleEndianBytes
            parameters += [0x01, 0x00, report.sid ?? 0xFF]
            parameters.append(UInt8(bitPattern: report.txPower ?? 127))
            parameters.append(UInt8(bitPattern: report.rssi ?? 127))
            parameters += [0, 0, 0, 0, 0, 0, 0, 0, 0]
            parameters.append(UInt8(end - start))
            parameters += report.data[start..<end]
            events.append([leMetaEvent, UInt8(parameters.count)] + parameters)
            start = end
        } while start < report.data.count
        return events
    }

    static func tooLong(_ count: Int) -> AdvertisingError {
        AdvertisingError(code: .encoding, message: "advertising reports need \(count) bytes; an HCI event holds 255")
    }
}
