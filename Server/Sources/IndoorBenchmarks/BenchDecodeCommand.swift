import ArgumentParser
import Foundation
import IndoorAdvertising
import IndoorCommands
import IndoorEvaluation
import IndoorModel

/// `indoor-bench decode`: beacon advertisements decoded per second from a btsnoop file.
struct BenchDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Advertisements decoded per second from a generated btsnoop capture (goal: 5 M/s per core).",
        discussion: """
            Writes a temporary capture of COUNT advertising reports (one per HCI event; 70 % iBeacon, 10 % \
            AltBeacon, 15 % Eddystone-UID, 5 % Eddystone-TLM, from 1000 advertisers), then decodes it from the file \
            with the streaming reader REPEAT times and reports the best run. Single-threaded.
            """)

    /// The largest `--count`: 100 M advertisements make a capture of about 7 GB.
    static let maximumCount = 100_000_000

    @Option(
        parsing: .unconditional,
        help: "Advertisements in the capture, 1...100000000 (100 M make about 7 GB).",
        transform: BenchDecodeCommand.wholeNumber)
    var count = 2_000_000

    @Option(parsing: .unconditional, help: "Timed decoding passes; the best is reported.")
    var `repeat` = 5

    @Option(help: "Datalink: h4 (1002), hci (1001) or monitor (2001).")
    var datalink = "monitor"

    @Flag(help: "Print one JSON object.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Also keep the generated capture at this path (a sample for `indoor decode`).",
            discussion: "It must not exist (see --force); it is written after the result is printed.",
            valueName: "file"))
    var write: String?

    @Flag(
        help: ArgumentHelp(
            "Replace an existing --write file.",
            discussion: """
                The capture is written to a temporary file beside it and renamed into place, so a failed or \
                interrupted write leaves the old file as it was. A folder is never replaced.
                """))
    var force = false

    struct Result: Encodable {
        var benchmark = "decode"
        var datalink: Int
        var advertisements: Int
        var decoded: Int
        var bytes: Int
        var seconds: Double
        var advertisementsPerSecond: Double
        var megabytesPerSecond: Double
    }

    func validate() throws {
        guard (1...Self.maximumCount).contains(count) else {
            throw ValidationError("--count must be 1...\(Self.maximumCount)")
        }
        guard `repeat` > 0 else { throw ValidationError("--repeat must be positive") }
        guard Self.datalinks[datalink] != nil else { throw ValidationError("--datalink must be h4, hci or monitor") }
    }

    /// A whole number written as digits (`2000000`) or in exponent form (`2e6`, `1e12`), so that a number too
    /// large for the range gets the range message rather than "invalid value".
    static func wholeNumber(_ text: String) throws -> Int {
        if let value = Int(text) { return value }
        guard let value = Double(text), value.rounded() == value, abs(value) < 9e18 else {
            throw ValidationError("'\(text)' is not a whole number")
        }
        return Int(value)
    }

    static let datalinks: [String: BtsnoopDatalink] = [
        "h4": .hciUART, "hci": .hciUnencapsulated, "monitor": .linuxMonitor,
    ]

    func run() throws {
        try run { print($0) }
    }

    /// Checks `--write`, generates and decodes the capture, emits the result, then keeps the capture.
    ///
    /// - Parameter emit: Told the result line (before `--write` is written, so a failed write loses no result).
    /// - Throws: ``CommandFailure`` naming the path that cannot be written, or when decoding misses frames.
    func run(emit: (String) -> Void) throws {
        let kept = try write.map { try OutputFile(path: $0, force: force) }
        let link = Self.datalinks[datalink] ?? .linuxMonitor
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "indoor-bench-\(UUID().uuidString).btsnoop")
        TemporaryFiles.shared.register(url.path)
        defer {
            try? FileManager.default.removeItem(at: url)
            TemporaryFiles.shared.unregister(url.path)
        }
        let bytes = try DecodeBenchCapture.write(count: count, datalink: link, to: url)
        var best = Double.infinity
        var decoded = 0
        for _ in 0..<`repeat` {
            var seen = 0
            let seconds = try BenchStopwatch.time {
                try BtsnoopReader.decode(fileAt: url, onAdvertisement: { _ in seen += 1 }, onProblem: { _ in })
            }
            best = min(best, seconds)
            decoded = seen
        }
        let result = Result(
            datalink: Int(link.rawValue), advertisements: count, decoded: decoded, bytes: bytes, seconds: best,
            advertisementsPerSecond: Double(count) / best, megabytesPerSecond: Double(bytes) / best / 1e6)
        if json {
            emit(String(decoding: try JSONFormat.encoder().encode(result), as: UTF8.self))
        } else {
            emit(
                "decode: \(count) advertisements (\(bytes) bytes, datalink \(link.rawValue)) in "
                    + String(
                        format: "%.3f s: %.2f M advertisements/s, %.0f MB/s", best,
                        result.advertisementsPerSecond / 1e6, result.megabytesPerSecond))
        }
        try kept?.copy(from: url)
        if decoded != count {
            throw CommandFailure("decoded \(decoded) beacon advertisements, expected \(count)")
        }
    }
}

/// The synthetic capture of `indoor-bench decode`.
enum DecodeBenchCapture {
    /// Writes `count` advertising reports to `url`; returns the file size in bytes.
    static func write(count: Int, datalink: BtsnoopDatalink, to url: URL) throws -> Int {
        var generator = SplitMix64(seed: 2024)
        let uuid = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0") ?? UUID()
        // 1000 advertisers: 70 % iBeacon, 10 % AltBeacon, 20 % Eddystone sending UID frames and, one time in
        // four, TLM frames from the same address.
        let identities: [[UInt8]] = (0..<1000).map { index in
            let kind = index % 10
            if kind < 7 {
                return IBeacon(id: BeaconID(uuid: uuid, major: 1, minor: UInt16(index)), measuredPowerDBm: -59)
                    .advertisingData
            } else if kind < 8 {
                return AltBeacon(companyID: 0x0118, id1: uuid, id2: 2, id3: UInt16(index), referenceRSSIDBm: -60)
                    .advertisingData
            }
            return EddystoneUID(
                namespace: EddystoneUID.Namespace(high: 0xEDD1, low: 0xEBEA_C04E_5DEF_A017), instance: UInt64(index),
                txPowerAtZeroMetersDBm: -18
            ).advertisingData
        }
        let telemetry = EddystoneTLM(
            batteryMillivolts: 3000, temperatureRaw: 0x1580, advertisementCount: 1, uptimeTenths: 10
        )
        .advertisingData
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CommandFailure.cannotWrite(url.path)
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var writer = BtsnoopWriter(datalink: datalink)
        writer.appendNewIndex(
            adapter: 0, address: BluetoothAddress(rawValue: 0x001A_7DDA_7100), name: "hci0", unixTime: 1.7e9)
        var size = 0
        for index in 0..<count {
            let random = generator.next()
            let advertiser = Int(random % 1000)
            let sendsTelemetry = advertiser % 10 >= 8 && (random >> 32) % 4 == 0
            let report = AdvertisingReport(
                addressType: 1, address: BluetoothAddress(rawValue: 0xC0_00_00_00_00_00 + UInt64(advertiser)),
                rssiDBm: Int8(-40 - Int((random >> 16) % 60)), data: sendsTelemetry ? telemetry : identities[advertiser]
            )
            try writer.appendAdvertisingReports([report], unixTime: 1.7e9 + Double(index) * 0.001)
            if writer.bytes.count > 1 << 20 {
                let chunk = writer.takeBytes()
                size += chunk.count
                try handle.write(contentsOf: Data(chunk))
            }
        }
        let chunk = writer.takeBytes()
        size += chunk.count
        try handle.write(contentsOf: Data(chunk))
        return size
    }
}
