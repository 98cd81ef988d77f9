import Foundation
import IndoorAdvertising
import IndoorGateways
import IndoorModel
import Testing

@testable import IndoorCommands

@Suite("indoor decode")
struct DecodeCommandTests {
    static let t0 = 1_700_000_000.25
    static let beacon = BeaconID(
        uuid: UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0") ?? UUID(), major: 1, minor: 42)

    static func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("decode-\(UUID().uuidString)-\(name)")
    }

    /// A monitor capture on adapter hci0: an iBeacon, an Eddystone UID, its TLM, and an ad that is not a beacon.
    static func capture() throws -> [UInt8] {
        var writer = BtsnoopWriter(datalink: .linuxMonitor)
        writer.appendNewIndex(
            adapter: 0, address: BluetoothAddress(rawValue: 0x001A_7DDA_7100), name: "hci0", unixTime: t0)
        let uid = EddystoneUID(
            namespace: EddystoneUID.Namespace(high: 0x8b0c, low: 0xa750_0954_77cb_3e77), instance: 1,
            txPowerAtZeroMetersDBm: -18)
        let tlm = EddystoneTLM(
            batteryMillivolts: 2950, temperatureRaw: 0x1580, advertisementCount: 12, uptimeTenths: 345)
        let eddystone = BluetoothAddress(rawValue: 0xD0_00_00_00_00_02)
        let reports = [
            AdvertisingReport(
                addressType: 1, address: BluetoothAddress(rawValue: 0xC0FF_EE00_0001), rssiDBm: -61,
                data: IBeacon(id: beacon, measuredPowerDBm: -59).advertisingData),
            AdvertisingReport(address: eddystone, rssiDBm: -70, data: uid.advertisingData),
            AdvertisingReport(address: eddystone, rssiDBm: -71, data: tlm.advertisingData),
            AdvertisingReport(address: BluetoothAddress(rawValue: 5), rssiDBm: -40, data: [2, 1, 6]),
        ]
        for (index, report) in reports.enumerated() {
            try writer.appendAdvertisingReports([report], unixTime: t0 + Double(index) / 2)
        }
        return writer.bytes
    }

    static func run(_ options: DecodeOutput, bytes: [UInt8]) throws -> (
        lines: [String], problems: [String], summary: DecodeOutput.Summary
    ) {
        let url = temporaryFile("capture.log")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var lines: [String] = []
        var problems: [String] = []
        let summary = try options.run(file: url, output: { lines.append($0) }, problems: { problems.append($0) })
        return (lines, problems, summary)
    }

    @Test func textLines() throws {
        let (lines, problems, summary) = try Self.run(DecodeOutput(), bytes: try Self.capture())
        #expect(problems.isEmpty)
        #expect(summary.problems == 0)
        #expect(summary.records == 5)
        #expect(
            lines == [
                "1700000000.250000 hci0 C0:FF:EE:00:00:01 ibeacon E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/42 tx=-59 rssi=-61",
                "1700000000.750000 hci0 D0:00:00:00:00:02 eddystone-uid eddystone-uid:8b0ca750095477cb3e77:000000000001 tx=-59 rssi=-70",
                "1700000001.250000 hci0 D0:00:00:00:00:02 eddystone-tlm eddystone-uid:8b0ca750095477cb3e77:000000000001 rssi=-71 battery=2950mV temp=21.5C count=12 uptime=34.5s",
            ])
    }

    @Test func jsonLines() throws {
        var options = DecodeOutput()
        options.json = true
        options.device = "gw-1"
        let (lines, _, _) = try Self.run(options, bytes: try Self.capture())
        #expect(lines.count == 3)
        #expect(
            lines.first
                == #"{"address":"C0:FF:EE:00:00:01","addressType":"random","device":"gw-1","identity":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/42","kind":"ibeacon","rssi":-61,"t":1700000000.25,"tx":-59}"#
        )
        let tlm = try JSONSerialization.jsonObject(with: Data(lines[2].utf8)) as? [String: Any]
        let telemetry = tlm?["telemetry"] as? [String: Any]
        #expect(telemetry?["batteryMillivolts"] as? Int == 2950)
        #expect(telemetry?["temperatureCelsius"] as? Double == 21.5)
    }

    @Test func sightingsReadBackAsBeaconsAndNodes() throws {
        let csv = Self.temporaryFile("sightings.csv")
        defer { try? FileManager.default.removeItem(at: csv) }
        var options = DecodeOutput()
        options.quiet = true
        options.sightings = csv
        let (lines, _, summary) = try Self.run(options, bytes: try Self.capture())
        #expect(lines.isEmpty)
        #expect(summary.sightings == 2)
        let text = try String(contentsOf: csv, encoding: .utf8)
        #expect(
            text == """
                t,device,node,rssi,tx
                1700000000.25,hci0,E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/42,-61,-59
                1700000000.75,hci0,eddystone-uid:8b0ca750095477cb3e77:000000000001,-70,-59

                """)
        let parsed = try DatasetCSV.parseSightings(text).get()
        #expect(
            parsed.map(\.source) == [.beacon(Self.beacon), .node("eddystone-uid:8b0ca750095477cb3e77:000000000001")])
    }

    @Test func simulatedSightingsRoundTrip() throws {
        var sightings: [Sighting] = []
        for index in 0..<12_000 {  // more than one 10 000-row batch of the CSV writer
            let time: Double = Self.t0 + Double(index) / 100
            let device = index.isMultiple(of: 2) ? "phone" : "walker-10"  // longer than a monitor adapter name
            let id = BeaconID(uuid: Self.beacon.uuid, major: 1, minor: UInt16(index % 7))
            let rssi = Double(-50 - index % 40)
            sightings.append(Sighting(time: time, device: device, source: .beacon(id), rssi: rssi, txPower: -59))
        }
        let csv = Self.temporaryFile("sightings.csv")
        defer { try? FileManager.default.removeItem(at: csv) }
        var options = DecodeOutput()
        options.quiet = true
        options.sightings = csv
        let (_, problems, _) = try Self.run(options, bytes: try BeaconCapture.btsnoop(sightings: sightings))
        #expect(problems.isEmpty)
        let back = try DatasetCSV.parseSightings(try String(contentsOf: csv, encoding: .utf8)).get()
        #expect(back.count == sightings.count)
        let worstTime = zip(back, sightings).map { abs($0.time - $1.time) }.max() ?? 0
        #expect(worstTime < 1e-6)
        #expect(back.map(\.device) == sightings.map(\.device))
        #expect(back.map(\.source) == sightings.map(\.source))
        #expect(back.map(\.rssi) == sightings.map(\.rssi))
        #expect(back.map(\.txPower) == sightings.map(\.txPower))
    }

    @Test func corruptRecordsAreReportedAndDecodingGoesOn() throws {
        var bytes = try Self.capture()
        bytes[16 + 40 + 4] ^= 0xFF  // the iBeacon record's included length: corrupt header
        bytes.removeLast(3)  // and a truncated last record
        let (lines, problems, summary) = try Self.run(DecodeOutput(), bytes: bytes)
        #expect(lines.count == 2)
        #expect(summary.problems == 2)
        #expect(problems.count == 2)
        #expect(problems.first?.hasSuffix("skipped 68 bytes to the next valid record at offset 124") == true)
        #expect(problems.first?.contains("capture.log: offset 56: corrupt record header") == true)
        #expect(problems.last?.contains("truncated record") == true)
    }

    @Test func notACapture() throws {
        let error = try #require(throws: AdvertisingError.self) {
            try Self.run(DecodeOutput(), bytes: Array("t,device,node,rssi\n".utf8))
        }
        #expect(error.description == "offset 0: not a btsnoop file: it does not start with 'btsnoop\\0'")
        let empty = try #require(throws: AdvertisingError.self) { try Self.run(DecodeOutput(), bytes: []) }
        #expect(empty.description == "offset 0: not a btsnoop file: 0 bytes, shorter than the 16-byte file header")
    }

    // A capture that cannot be read leaves an existing sightings file alone (even with --force); a missing folder
    // is found first.
    @Test func sightingsFileIsWrittenOnlyWhenThereIsSomethingToWrite() throws {
        let csv = Self.temporaryFile("keep.csv")
        defer { try? FileManager.default.removeItem(at: csv) }
        try Data("keep\n".utf8).write(to: csv)
        var options = DecodeOutput()
        options.sightings = csv
        options.force = true
        #expect(throws: AdvertisingError.self) { try Self.run(options, bytes: Array("not a capture".utf8)) }
        #expect(try String(contentsOf: csv, encoding: .utf8) == "keep\n")
        options.sightings = URL(fileURLWithPath: "/nonexistent-folder/s.csv")
        let error = try #require(throws: CommandFailure.self) { try Self.run(options, bytes: try Self.capture()) }
        #expect(
            error.description == "cannot write '/nonexistent-folder/s.csv': folder '/nonexistent-folder' does not exist"
        )
    }

    // The device id goes into the sightings CSV, so it cannot hold the separator or a line break.
    @Test(arguments: ["a,b", "", "two\nlines"])
    func deviceThatCannotBeAnIDIsRejected(device: String) {
        #expect(throws: (any Error).self) {
            try IndoorCommand.parseAsRoot(["decode", "x.log", "--sightings", "s.csv", "--device", device])
        }
    }

    @Test func commandLineParses() throws {
        let command = try IndoorCommand.parseAsRoot([
            "decode", "x.log", "--json", "--sightings", "s.csv", "--device", "gw",
        ])
        let decode = try #require(command as? DecodeCommand)
        #expect(decode.file == "x.log" && decode.json && decode.sightings == "s.csv" && decode.device == "gw")
    }
}

/// `indoor decode --irks`: the advertisements of a phone's resolvable private address, named by its key.
@Suite("indoor decode --irks")
struct DecodeIRKTests {
    @Test func theSpecificationsSampleAddressIsNamedAndOthersAreNot() throws {
        var writer = BtsnoopWriter(datalink: .hciUART)
        // 70:81:94:0D:FB:AA: the Bluetooth Core specification's sample, made by IRK ec0234a3…7d9b (random address).
        let phone = AdvertisingReport(
            addressType: 1, address: BluetoothAddress(rawValue: 0x7081_940D_FBAA), rssiDBm: -64,
            data: [0x02, 0x01, 0x1A, 0x05, 0x09, 0x41, 0x6E, 0x6E, 0x61])
        // Another resolvable private address no key made.
        let stranger = AdvertisingReport(
            addressType: 1, address: BluetoothAddress(rawValue: 0x4A11_2233_4455), rssiDBm: -70,
            data: [0x02, 0x01, 0x1A])
        try writer.appendAdvertisingReports([phone, stranger], unixTime: 1_800_000_000.5)
        try writer.appendAdvertisingReports([phone], unixTime: 1_800_000_001.5)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-irk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let capture = folder.appendingPathComponent("phone.btsnoop")
        try Data(writer.takeBytes()).write(to: capture)

        // The key as a macOS keychain shows it (reversed): both orders are accepted.
        let resolver = try IRKResolver(keys: ["anna-iphone": "9b7d390aa610103405adc857a33402ec"])
        var lines: [String] = []
        let count = try DecodeCommand.resolvedAdvertisements(
            file: capture.path, resolver: resolver, devices: ["anna-iphone"], json: false, quiet: false,
            output: { lines.append($0) })
        #expect(count == 2)
        #expect(lines == ["1800000000.500000 anna-iphone rpa rssi=-64", "1800000001.500000 anna-iphone rpa rssi=-64"])
        var rows: [String] = []
        _ = try DecodeCommand.resolvedAdvertisements(
            file: capture.path, resolver: resolver, devices: ["anna-iphone"], json: true, quiet: false,
            output: { rows.append($0) })
        #expect(rows.first == #"{"device":"anna-iphone","kind":"rpa","rssi":-64,"t":1800000000.5}"#)
    }
}
