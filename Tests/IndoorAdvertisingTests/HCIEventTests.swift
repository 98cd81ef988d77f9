import Foundation
import IndoorModel
import Testing

@testable import IndoorAdvertising

@Suite("HCI advertising reports")
struct HCIEventTests {
    static let beacon = IBeacon(
        id: BeaconID(
            uuid: UUID(uuidString: "426C7565-4368-6172-6D42-6561636F6E73") ?? UUID(), major: 3838, minor: 4949),
        measuredPowerDBm: -59)

    // A real-shaped event: LE Meta, subevent 0x02, one ADV_NONCONN_IND report from random address
    // C0:FF:EE:00:00:01 with the published iBeacon and RSSI -70 (0xBA).
    @Test func legacyReportFromBytes() {
        let event = hex(
            "3e 2a 02 01 03 01 010000eeffc0 1e 0201061aff4c000215426c7565436861726d426561636f6e730efe1355c5 ba")
        var assembler = ExtendedAdvertisingAssembler()
        let (reports, problems) = HCIEvent.advertisingReports(event: event, assembler: &assembler)
        #expect(problems.isEmpty)
        #expect(reports.count == 1)
        #expect(reports.first?.address.text == "C0:FF:EE:00:00:01")
        #expect(reports.first?.addressType == 1)
        #expect(reports.first?.eventType == 3)
        #expect(reports.first?.rssi == -70)
        #expect(reports.first?.data == Self.beacon.advertisingData)
    }

    // The same event with RSSI 0x7F: 127 means the controller has no RSSI, not +127 dBm.
    @Test func rssi127IsNotAvailable() {
        let event = hex(
            "3e 2a 02 01 03 01 010000eeffc0 1e 0201061aff4c000215426c7565436861726d426561636f6e730efe1355c5 7f")
        var assembler = ExtendedAdvertisingAssembler()
        let (reports, problems) = HCIEvent.advertisingReports(event: event, assembler: &assembler)
        #expect(problems.isEmpty)
        #expect(reports.count == 1)
        #expect(reports.first?.rssi == nil)
        #expect(reports.first?.data == Self.beacon.advertisingData)
    }

    @Test func severalLegacyReportsInOneEvent() throws {
        let rssis: [Int8?] = [-60, -61, nil]
        let datas: [[UInt8]] = [Self.beacon.advertisingData, [2, 1, 6], Self.beacon.advertisingData]
        var reports: [AdvertisingReport] = []
        for index in 0..<3 {
            let address = BluetoothAddress(rawValue: 0xC0FF_EE00_0000 + UInt64(index))
            reports.append(AdvertisingReport(address: address, rssiDBm: rssis[index], data: datas[index]))
        }
        let event = try HCIEvent.legacyReportEvent(reports)
        var assembler = ExtendedAdvertisingAssembler()
        let decoded = HCIEvent.advertisingReports(event: event, assembler: &assembler)
        #expect(decoded.problems.isEmpty)
        #expect(decoded.reports == reports)
        #expect(decoded.reports[2].rssi == nil)  // 127 = not available
    }

    @Test func legacyEventRunningPastItsEndKeepsEarlierReports() throws {
        let reports = (0..<2).map { index in
            AdvertisingReport(
                address: BluetoothAddress(rawValue: UInt64(index)), rssiDBm: -50, data: Self.beacon.advertisingData)
        }
        var event = try HCIEvent.legacyReportEvent(reports)
        event.removeLast(5)
        event[1] = UInt8(event.count - 2)
        var assembler = ExtendedAdvertisingAssembler()
        let decoded = HCIEvent.advertisingReports(event: event, assembler: &assembler)
        #expect(decoded.reports == [reports[0]])
        #expect(decoded.problems.count == 1)
        #expect(decoded.problems.first?.message.contains("report 2 of 2") == true)
    }

    @Test func parameterLengthBeyondTheEvent() {
        var assembler = ExtendedAdvertisingAssembler()
        let decoded = HCIEvent.advertisingReports(event: hex("3e 20 02 01"), assembler: &assembler)
        #expect(decoded.reports.isEmpty)
        #expect(decoded.problems.first?.code == .malformedEvent)
    }

    @Test func otherEventsGiveNothing() {
        var assembler = ExtendedAdvertisingAssembler()
        #expect(HCIEvent.advertisingReports(event: hex("0e 04 01 03 0c 00"), assembler: &assembler).reports.isEmpty)
        #expect(
            HCIEvent.advertisingReports(event: hex("3e 0a 01 00 0000 00 00"), assembler: &assembler).reports.isEmpty)
    }

    @Test func extendedReportUnfragmented() {
        let report = AdvertisingReport(
            format: .extended, eventType: 0x0010, addressType: 0, address: BluetoothAddress(rawValue: 0xAABB_CCDD_EEFF),
            rssiDBm: -71, txPowerDBm: 4, sid: 3, data: Self.beacon.advertisingData)
        let events = HCIEvent.extendedReportEvents(report)
        #expect(events.count == 1)
        #expect(events[0].count == 2 + 2 + 24 + 30)
        var assembler = ExtendedAdvertisingAssembler()
        let decoded = HCIEvent.advertisingReports(event: events[0], assembler: &assembler)
        #expect(decoded.reports == [report])
    }

    @Test(arguments: [1, 7, 100, 229])
    func extendedReportReassembly(fragmentLength: Int) {
        let long = (0..<400).map { UInt8(truncatingIfNeeded: $0) }
        let first = AdvertisingReport(
            format: .extended, eventType: 0x0000, address: BluetoothAddress(rawValue: 1), rssiDBm: -80, txPowerDBm: nil,
            sid: 1, data: long)
        var second = first
        second.sid = 2  // same address, another advertising set: reassembled separately
        second.data = Array(long.reversed())
        let a = HCIEvent.extendedReportEvents(first, fragmentLength: fragmentLength)
        let b = HCIEvent.extendedReportEvents(second, fragmentLength: fragmentLength)
        #expect(a.count == (400 + fragmentLength - 1) / fragmentLength)
        var assembler = ExtendedAdvertisingAssembler()
        var reports: [AdvertisingReport] = []
        for index in 0..<max(a.count, b.count) {
            for events in [a, b] where index < events.count {
                let decoded = HCIEvent.advertisingReports(event: events[index], assembler: &assembler)
                #expect(decoded.problems.isEmpty)
                reports += decoded.reports
            }
        }
        #expect(reports == [first, second])
        #expect(assembler.pendingCount == 0)
    }

    // Two advertisers using the same SID, their fragments interleaved: each is put back together on its own.
    @Test func reassemblyIsPerAddress() {
        let first = AdvertisingReport(
            format: .extended, eventType: 0, addressType: 1, address: BluetoothAddress(rawValue: 0xC0_00_00_00_00_0A),
            rssiDBm: -75, txPowerDBm: nil, sid: 0, data: (0..<90).map { UInt8($0) })
        var second = first
        second.address = BluetoothAddress(rawValue: 0xC0_00_00_00_00_0B)
        second.rssi = -55
        second.data = (0..<70).map { UInt8(200 - $0) }
        let a = HCIEvent.extendedReportEvents(first, fragmentLength: 30)
        let b = HCIEvent.extendedReportEvents(second, fragmentLength: 30)
        #expect(a.count == 3 && b.count == 3)
        var assembler = ExtendedAdvertisingAssembler()
        var reports: [AdvertisingReport] = []
        for event in [a[0], b[0], b[1], a[1], b[2], a[2]] {
            let decoded = HCIEvent.advertisingReports(event: event, assembler: &assembler)
            #expect(decoded.problems.isEmpty)
            reports += decoded.reports
        }
        #expect(reports == [second, first])
        #expect(assembler.pendingCount == 0)
    }

    @Test func truncatedByControllerIsDelivered() {
        var event = HCIEvent.extendedReportEvents(
            AdvertisingReport(
                format: .extended, eventType: 0x40, address: BluetoothAddress(rawValue: 9), rssiDBm: -60, sid: 0,
                data: [2, 1, 6, 5, 0xFF]))[0]
        event[4] = 0x40  // data status 2: truncated, no more to come
        var assembler = ExtendedAdvertisingAssembler()
        let decoded = HCIEvent.advertisingReports(event: event, assembler: &assembler)
        #expect(decoded.reports.count == 1)
        #expect(decoded.reports.first?.data == [2, 1, 6, 5, 0xFF])
    }

    @Test func reassemblyIsBounded() {
        var assembler = ExtendedAdvertisingAssembler()
        var problems: [AdvertisingError] = []
        let fragment = AdvertisingReport(
            format: .extended, eventType: 0x20, address: BluetoothAddress(rawValue: 5), rssiDBm: -60, sid: 0,
            data: [UInt8](repeating: 0, count: 200))
        for _ in 0..<10 {
            var event = HCIEvent.extendedReportEvents(fragment)[0]
            event[4] = 0x20  // more to come, forever
            problems += HCIEvent.advertisingReports(event: event, assembler: &assembler).problems
        }
        #expect(problems.contains { $0.code == .reassembly })
        #expect(assembler.pendingCount <= ExtendedAdvertisingAssembler.maxPending)
    }
}
