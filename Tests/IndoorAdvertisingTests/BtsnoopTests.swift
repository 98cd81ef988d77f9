import Foundation
import IndoorModel
import Testing

@testable import IndoorAdvertising

@Suite("btsnoop captures")
struct BtsnoopTests {
    static let t0 = 1_700_000_000.25

    static func beaconID(_ minor: UInt16) -> BeaconID {
        BeaconID(uuid: UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0") ?? UUID(), major: 7, minor: minor)
    }

    /// A capture of `count` iBeacon reports, one per event, 0.1 s apart.
    static func capture(_ datalink: BtsnoopDatalink, count: Int = 5) throws -> [UInt8] {
        var writer = BtsnoopWriter(datalink: datalink)
        writer.appendNewIndex(adapter: 0, address: BluetoothAddress(rawValue: 1), name: "hci0", unixTime: t0)
        for index in 0..<count {
            let report = AdvertisingReport(
                address: BluetoothAddress(rawValue: 0xC0FF_EE00_0000 + UInt64(index)), rssiDBm: Int8(-60 - index % 60),
                data: IBeacon(id: beaconID(UInt16(index)), measuredPowerDBm: -59).advertisingData)
            try writer.appendAdvertisingReports([report], unixTime: t0 + Double(index) / 10)
        }
        return writer.bytes
    }

    static func decodeAll(_ capture: [UInt8]) throws -> (ads: [BeaconAdvertisement], problems: [AdvertisingError]) {
        var ads: [BeaconAdvertisement] = []
        var problems: [AdvertisingError] = []
        _ = try CaptureDecoder.decode(
            capture: capture, onAdvertisement: { ads.append($0) }, onProblem: { problems.append($0) })
        return (ads, problems)
    }

    @Test func fileHeaderAndTimestampConstant() throws {
        let bytes = BtsnoopWriter(datalink: .hciUART).bytes
        #expect(bytes == hex("6274736e6f6f7000 00000001 000003ea"))
        #expect(Btsnoop.epochOffsetMicroseconds == 62_168_256_000_000_000)
        #expect(Btsnoop.unixTime(timestamp: 0x00dc_ddb3_0f2f_8000) == 0)
        #expect(Btsnoop.unixTime(timestamp: Btsnoop.timestamp(unixTime: Self.t0)) == Self.t0)
    }

    @Test(arguments: [BtsnoopDatalink.hciUnencapsulated, .hciUART, .linuxMonitor])
    func writerRoundTrip(datalink: BtsnoopDatalink) throws {
        let (ads, problems) = try Self.decodeAll(try Self.capture(datalink))
        #expect(problems.isEmpty)
        #expect(ads.count == 5)
        for (index, ad) in ads.enumerated() {
            #expect(abs(ad.time - (Self.t0 + Double(index) / 10)) < 1e-6)
            #expect(ad.rssi == -60 - index)
            #expect(ad.frame == .iBeacon(IBeacon(id: Self.beaconID(UInt16(index)), measuredPowerDBm: -59)))
            #expect(ad.adapter == (datalink == .linuxMonitor ? 0 : nil))
        }
    }

    @Test func monitorAdapterNames() throws {
        var decoder = CaptureDecoder()
        let capture = try Self.capture(.linuxMonitor)
        _ = try capture.withUnsafeBytes {
            try decoder.decode($0, isEnd: true, onAdvertisement: { _ in }, onProblem: { _ in })
        }
        #expect(decoder.adapterNames == [0: "hci0"])
        #expect(decoder.statistics.records == 6)
        #expect(decoder.statistics.beaconAdvertisements == 5)
    }

    // A hand-made H4 record: header fields big-endian, timestamp 2023-11-14T22:13:20.25Z.
    @Test func handMadeRecord() throws {
        var bytes = hex("6274736e6f6f7000 00000001 000003ea")
        let event = hex(
            "3e 2a 02 01 03 01 010000eeffc0 1e 0201061aff4c000215426c7565436861726d426561636f6e730efe1355c5 ba")
        let length = String(format: "%08x", event.count + 1)
        let timestamp = String(format: "%016llx", UInt64(62_168_256_000_000_000 + 1_700_000_000_250_000))
        bytes += hex(length + length + "00000003 00000000" + timestamp) + [0x04] + event
        let (ads, problems) = try Self.decodeAll(bytes)
        #expect(problems.isEmpty)
        #expect(ads.count == 1)
        #expect(ads.first?.time == 1_700_000_000.25)
        #expect(ads.first?.address.text == "C0:FF:EE:00:00:01")
        #expect(ads.first?.rssi == -70)
        #expect(ads.first?.identity?.text == "426C7565-4368-6172-6D42-6561636F6E73/3838/4949")
    }

    @Test func notBtsnoop() {
        #expect(throws: AdvertisingError.self) { try Self.decodeAll(Array("hello world, not btsnoop".utf8)) }
        #expect(throws: AdvertisingError.self) { try Self.decodeAll(hex("6274736e6f6f7000 00000001 000003eb")) }
        #expect(throws: AdvertisingError.self) { try Self.decodeAll(hex("6274736e6f6f70")) }
    }

    @Test func truncatedLastRecordIsReportedWithItsOffset() throws {
        var capture = try Self.capture(.hciUART, count: 3)
        capture.removeLast(10)
        let (ads, problems) = try Self.decodeAll(capture)
        #expect(ads.count == 2)
        #expect(problems.count == 1)
        let recordLength = 24 + 1 + 2 + 42
        #expect(problems.first?.offset == Int64(16 + 2 * recordLength))
        #expect(problems.first?.code == .truncatedRecord)
        #expect(problems.first?.description.contains("only 35 remain") == true)
    }

    @Test func truncatedRecordHeader() throws {
        var capture = try Self.capture(.hciUART, count: 2)
        capture += [0, 0, 0, 1]
        let (ads, problems) = try Self.decodeAll(capture)
        #expect(ads.count == 2)
        #expect(problems.map(\.code) == [.truncatedRecord])
    }

    @Test func corruptHeaderResynchronises() throws {
        var capture = try Self.capture(.hciUART, count: 5)
        let recordLength = 24 + 1 + 2 + 42
        let second = 16 + recordLength
        capture[second + 4] = 0xFF  // included length > original length
        let (ads, problems) = try Self.decodeAll(capture)
        #expect(ads.map(\.rssi) == [-60, -62, -63, -64])
        #expect(problems.count == 1)
        #expect(problems.first?.code == .corruptRecord)
        #expect(problems.first?.offset == Int64(second))
        #expect(problems.first?.message.contains("skipped \(recordLength) bytes") == true)
    }

    @Test func garbageInsertedBetweenRecords() throws {
        let capture = try Self.capture(.linuxMonitor, count: 4)
        let cut = 16 + 24 + 16 + 2 * (24 + 2 + 42)
        let damaged = Array(capture[..<cut]) + [UInt8](repeating: 0xFF, count: 37) + Array(capture[cut...])
        let (ads, problems) = try Self.decodeAll(damaged)
        #expect(ads.count == 4)
        #expect(problems.count == 1)
        #expect(problems.first?.offset == Int64(cut))
    }

    @Test func badAdvertisingDataIsReportedAndDecodingGoesOn() throws {
        var writer = BtsnoopWriter(datalink: .hciUART)
        let good = IBeacon(id: Self.beaconID(1), measuredPowerDBm: -59).advertisingData
        try writer.appendAdvertisingReports(
            [AdvertisingReport(address: BluetoothAddress(rawValue: 1), rssiDBm: -50, data: [9, 0xFF, 1])],
            unixTime: Self.t0)
        try writer.appendAdvertisingReports(
            [AdvertisingReport(address: BluetoothAddress(rawValue: 2), rssiDBm: -51, data: good)], unixTime: Self.t0 + 1
        )
        let (ads, problems) = try Self.decodeAll(writer.bytes)
        #expect(ads.count == 1)
        #expect(problems.count == 1)
        #expect(problems.first?.offset == 16)
        #expect(problems.first?.description.contains("00:00:00:00:00:01") == true)
    }

    @Test func telemetryAttachesToTheBeaconFromTheSameAddress() throws {
        let uid = EddystoneUID(
            namespace: EddystoneUID.Namespace(high: 0x8b0c, low: 0xa750_0954_77cb_3e77), instance: 1,
            txPowerAtZeroMetersDBm: -18)
        let tlm = EddystoneTLM(
            batteryMillivolts: 2950, temperatureRaw: 0x1580, advertisementCount: 12, uptimeTenths: 345)
        let address = BluetoothAddress(rawValue: 0xD0_00_00_00_00_01)
        var writer = BtsnoopWriter(datalink: .hciUART)
        for (index, data) in [uid.advertisingData, tlm.advertisingData, uid.advertisingData].enumerated() {
            try writer.appendAdvertisingReports(
                [AdvertisingReport(address: address, rssiDBm: -70, data: data)], unixTime: Self.t0 + Double(index))
        }
        let (ads, problems) = try Self.decodeAll(writer.bytes)
        #expect(problems.isEmpty)
        #expect(ads.map(\.frame.kind) == ["eddystone-uid", "eddystone-tlm", "eddystone-uid"])
        #expect(ads[0].telemetry == nil)
        #expect(ads[1].telemetryOwner == .eddystoneUID(uid))
        #expect(ads[1].identity == BeaconFrame.eddystoneUID(uid).identity)
        #expect(ads[2].telemetry == tlm)
        #expect(ads[1].sighting(device: "d") == nil)
        #expect(ads[2].sighting(device: "d")?.txPower == -59)
    }

    // Telemetry belongs to its own address only: a TLM from a neighbour is not attached, a later TLM replaces
    // an earlier one, and a TLM heard before any identity frame has no owner.
    @Test func telemetryIsNotAttachedAcrossAddresses() throws {
        let uid = EddystoneUID(
            namespace: EddystoneUID.Namespace(high: 0x8b0c, low: 0xa750_0954_77cb_3e77), instance: 2,
            txPowerAtZeroMetersDBm: -20)
        let old = EddystoneTLM(batteryMillivolts: 3100, temperatureRaw: 0x1400, advertisementCount: 5, uptimeTenths: 50)
        let new = EddystoneTLM(batteryMillivolts: 3000, temperatureRaw: 0x1480, advertisementCount: 9, uptimeTenths: 90)
        let neighbour = EddystoneTLM(batteryMillivolts: 2000, temperatureRaw: 0, advertisementCount: 1, uptimeTenths: 1)
        let beacon = BluetoothAddress(rawValue: 0xD0_00_00_00_00_02)
        let other = BluetoothAddress(rawValue: 0xD0_00_00_00_00_03)
        let sequence: [(BluetoothAddress, [UInt8])] = [
            (beacon, old.advertisingData), (beacon, uid.advertisingData), (other, neighbour.advertisingData),
            (beacon, new.advertisingData), (beacon, uid.advertisingData),
        ]
        var writer = BtsnoopWriter(datalink: .hciUnencapsulated)
        for (index, (address, data)) in sequence.enumerated() {
            try writer.appendAdvertisingReports(
                [AdvertisingReport(address: address, rssiDBm: -65, data: data)], unixTime: Self.t0 + Double(index))
        }
        let (ads, problems) = try Self.decodeAll(writer.bytes)
        #expect(problems.isEmpty)
        #expect(ads.count == 5)
        #expect(ads[0].telemetryOwner == nil && ads[0].identity == nil)
        #expect(ads[1].telemetry == old)
        #expect(ads[2].telemetryOwner == nil)
        #expect(ads[3].telemetryOwner == .eddystoneUID(uid))
        #expect(ads[4].telemetry == new)
    }

    // Each device is an adapter index (16 bits) in a monitor capture: the 65 537th device is an error, not a
    // silent reuse of adapter 0.
    @Test func tooManyDevicesForAMonitorCapture() throws {
        let beacon = Self.beaconID(1)
        let sightings = (0...65_536).map { Sighting(time: 1, device: "d\($0)", source: .beacon(beacon), rssi: -60) }
        let error = try #require(throws: AdvertisingError.self) { try BeaconCapture.btsnoop(sightings: sightings) }
        #expect(error.message.hasPrefix("sighting 65537 (device 'd65536'): more than 65536 devices"))
    }

    @Test func extendedReportsThroughACapture() throws {
        var writer = BtsnoopWriter(datalink: .linuxMonitor)
        let uid = EddystoneUID(
            namespace: EddystoneUID.Namespace(high: 1, low: 2), instance: 3, txPowerAtZeroMetersDBm: -20)
        let data =
            uid.advertisingData + [UInt8](repeating: 0, count: 0) + [40, 0xFF] + [UInt8](repeating: 0xAB, count: 39)
        try writer.appendAdvertisingReports(
            [
                // rssiDBm nil is written as 127, "not available".
                AdvertisingReport(
                    format: .extended, eventType: 0, address: BluetoothAddress(rawValue: 77), rssiDBm: nil,
                    txPowerDBm: 8, sid: 4, data: data)
            ],
            unixTime: Self.t0, adapter: 1, fragmentLength: 20)
        let (ads, problems) = try Self.decodeAll(writer.bytes)
        #expect(problems.isEmpty)
        #expect(ads.count == 1)
        #expect(ads.first?.rssi == nil)
        #expect(ads.first?.reportedTxPower == 8)
        #expect(ads.first?.adapter == 1)
        #expect(ads.first?.frame == .eddystoneUID(uid))
        #expect(ads.first?.sighting(device: "x") == nil)  // no RSSI, no sighting
    }

    /// Feeding the bytes in small pieces gives the same result as all at once.
    @Test(arguments: [1, 7, 64, 1000])
    func incrementalFeeding(pieceSize: Int) throws {
        var capture = try Self.capture(.hciUART, count: 6)
        capture[16 + 69 + 4] = 0xFF
        capture.removeLast(3)
        let whole = try Self.decodeAll(capture)
        var decoder = CaptureDecoder()
        var ads: [BeaconAdvertisement] = []
        var problems: [AdvertisingError] = []
        var pending: [UInt8] = []
        var position = 0
        while true {
            let isEnd = position >= capture.count
            pending += capture[min(capture.count, position)..<min(capture.count, position + pieceSize)]
            position += pieceSize
            let used = try pending.withUnsafeBytes {
                try decoder.decode(
                    $0, isEnd: isEnd, onAdvertisement: { ads.append($0) }, onProblem: { problems.append($0) })
            }
            pending.removeFirst(used)
            if isEnd { break }
        }
        #expect(ads == whole.ads)
        #expect(problems == whole.problems)
        #expect(ads.count == 4)
        #expect(problems.count == 2)
    }

    @Test func readerStreamsAFileInChunks() throws {
        let capture = try Self.capture(.linuxMonitor, count: 300)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("btsnoop-\(UUID().uuidString).log")
        try Data(capture).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var count = 0
        let decoder = try BtsnoopReader.decode(
            fileAt: url, chunkSize: 4096, onAdvertisement: { _ in count += 1 }, onProblem: { Issue.record("\($0)") })
        #expect(count == 300)
        #expect(decoder.datalink == .linuxMonitor)
        #expect(decoder.statistics.records == 301)
    }

    @Test func sightingsToCaptureAndBack() throws {
        let sightings = [
            Sighting(
                time: Self.t0 + 1, device: "phone-1", source: .beacon(Self.beaconID(2)), rssi: -71.4, txPower: -58),
            Sighting(time: Self.t0, device: "phone-1", source: .beacon(Self.beaconID(1)), rssi: -65),
            Sighting(time: Self.t0 + 2, device: "a-very-long-device", source: .node(Self.beaconID(1).text), rssi: -80),
        ]
        let capture = try BeaconCapture.btsnoop(sightings: sightings)
        var names: [UInt16: String] = [:]
        var ads: [BeaconAdvertisement] = []
        var decoder = CaptureDecoder()
        _ = try capture.withUnsafeBytes {
            try decoder.decode(
                $0, isEnd: true, onAdvertisement: { ads.append($0) }, onProblem: { Issue.record("\($0)") })
        }
        names = decoder.adapterNames
        #expect(names == [0: "phone-1", 1: "a-very-long-device"])
        let back = ads.compactMap { ad in ad.sighting(device: names[ad.adapter ?? 0] ?? "?") }
        #expect(back.map(\.time) == [Self.t0, Self.t0 + 1, Self.t0 + 2])
        #expect(
            back.map(\.source) == [.beacon(Self.beaconID(1)), .beacon(Self.beaconID(2)), .beacon(Self.beaconID(1))])
        #expect(back.map(\.rssi) == [-65, -71, -80])
        #expect(back.map(\.txPower) == [-59, -58, -59])
        #expect(back.map(\.device) == ["phone-1", "phone-1", "a-very-long-device"])
        #expect(ads.map(\.adapterName) == ["phone-1", "phone-1", "a-very-long-device"])
        #expect(ads[0].address == BeaconCapture.address(of: Self.beaconID(1)))
        #expect(ads[0].address == ads[2].address)
        #expect(throws: AdvertisingError.self) {
            try BeaconCapture.btsnoop(sightings: [Sighting(time: 0, device: "d", node: "n1", rssi: -60)])
        }
    }

    @Test func adapterNamesThatCannotBeDeviceIdsAreIgnored() throws {
        var writer = BtsnoopWriter(datalink: .linuxMonitor)
        writer.appendNewIndex(adapter: 2, address: BluetoothAddress(rawValue: 1), name: "hci2", unixTime: Self.t0)
        writer.appendAdapterName(adapter: 2, name: "a,b", unixTime: Self.t0)  // a comma would break the CSV
        writer.appendAdapterName(adapter: 3, name: "gateway-lobby", unixTime: Self.t0)
        let data = IBeacon(id: Self.beaconID(1), measuredPowerDBm: -59).advertisingData
        for adapter: UInt16 in [2, 3, 4] {
            try writer.appendAdvertisingReports(
                [AdvertisingReport(address: BluetoothAddress(rawValue: 9), rssiDBm: -60, data: data)],
                unixTime: Self.t0,
                adapter: adapter)
        }
        let (ads, problems) = try Self.decodeAll(writer.bytes)
        #expect(problems.isEmpty)
        #expect(ads.map(\.adapterName) == ["hci2", "gateway-lobby", nil])
        #expect(ads.map(\.adapter) == [2, 3, 4])
    }

    @Test func unencapsulatedHCIReadsOnlyReceivedEvents() throws {
        var writer = BtsnoopWriter(datalink: .hciUnencapsulated)
        let event = try HCIEvent.legacyReportEvent(
            [
                AdvertisingReport(
                    address: BluetoothAddress(rawValue: 9), rssiDBm: -60,
                    data: IBeacon(id: Self.beaconID(1), measuredPowerDBm: -59).advertisingData)
            ])
        writer.appendRecord(payload: event, flags: 2, unixTime: Self.t0)  // sent command: not an event
        writer.appendRecord(payload: event, flags: 1, unixTime: Self.t0)  // received data: not an event
        writer.appendRecord(payload: event, flags: 3, unixTime: Self.t0)  // received event
        let (ads, problems) = try Self.decodeAll(writer.bytes)
        #expect(problems.isEmpty)
        #expect(ads.count == 1)
    }
}
