import Foundation
import IndoorAdvertising
import IndoorModel

/// The work of `indoor decode`, apart from the command line, so tests can run it in-process.
///
/// Output: one line per beacon advertisement (text or JSON Lines) through `output`, problems through
/// `problems` (`FILE: offset N: what was wrong`), and optionally a sightings CSV in the dataset layout.
struct DecodeOutput {
    /// The device id written for every sighting, instead of the capture's adapter.
    var device: String?
    var json = false
    /// Print nothing per advertisement (useful with `sightings`).
    var quiet = false
    /// Where to write `sightings.csv`, when wanted.
    var sightings: URL?
    /// Whether an existing file at `sightings` may be replaced (`--force`); the capture itself never may.
    var force = false

    struct Summary: Equatable {
        var records = 0
        var beaconAdvertisements = 0
        var sightings = 0
        /// Records, reports or advertisements skipped because they were corrupt or truncated.
        var problems = 0
    }

    /// One JSON Lines row.
    struct Row: Encodable {
        var t: Double
        var device: String
        var address: String
        var addressType: String
        var kind: String
        var identity: String?
        var tx: Int?
        var rssi: Int?
        var telemetry: Telemetry?
    }

    struct Telemetry: Encodable {
        var batteryMillivolts: Int
        var temperatureCelsius: Double?
        var advertisementCount: Int
        var uptimeSeconds: Double

        init(_ tlm: EddystoneTLM) {
            batteryMillivolts = Int(tlm.batteryMillivolts)
            temperatureCelsius = tlm.temperatureCelsius
            advertisementCount = Int(tlm.advertisementCount)
            uptimeSeconds = tlm.uptimeSeconds
        }
    }

    /// Decodes the capture at `file`.
    ///
    /// - Throws: When the file is not a btsnoop capture or cannot be read or written.
    func run(file: URL, output: (String) -> Void, problems: (String) -> Void) throws -> Summary {
        var summary = Summary()
        // Checked before decoding: the sightings path is not the capture, not a folder, and not a file that
        // exists without `force`. The CSV goes to a temporary file renamed into place at the end, so a capture
        // that cannot be read, or a failed write, leaves an existing file as it was.
        let sightingsFile = try sightings.map {
            try OutputFile(path: $0.path, force: force, inputs: [file.path]).open()
        }
        var batch: [Sighting] = []
        var wroteHeader = false
        func flush() throws {
            guard let sightingsFile, !batch.isEmpty || !wroteHeader else { return }
            // Every beacon frame states its power at 1 m, so the tx column is always there.
            var text = DatasetCSV.sightingsText(batch, withTx: true)
            if wroteHeader, let newline = text.firstIndex(of: "\n") {
                text = String(text[text.index(after: newline)...])
            }
            wroteHeader = true
            try sightingsFile.write(Data(text.utf8))
            batch.removeAll(keepingCapacity: true)
        }
        let encoder = JSONFormat.encoder()
        var writeError: (any Error)?
        let name = file.lastPathComponent
        let decoder = try BtsnoopReader.decode(
            fileAt: file,
            onAdvertisement: { ad in
                summary.beaconAdvertisements += 1
                let device = deviceName(ad)
                if !quiet {
                    if json {
                        if let data = try? encoder.encode(row(ad, device: device)) {
                            output(String(decoding: data, as: UTF8.self))
                        }
                    } else {
                        output(line(ad, device: device))
                    }
                }
                if sightings != nil, let sighting = ad.sighting(device: device) {
                    summary.sightings += 1
                    batch.append(sighting)
                    if batch.count >= 10_000, writeError == nil {
                        do { try flush() } catch { writeError = error }
                    }
                }
            },
            onProblem: { problem in
                summary.problems += 1
                problems("\(name): \(problem)")
            })
        if let writeError { throw writeError }
        try flush()
        try sightingsFile?.commit()
        summary.records = decoder.statistics.records
        return summary
    }

    /// `--device`, else the adapter's name (or `hci<index>`) in a Linux monitor capture, else `capture`.
    func deviceName(_ ad: BeaconAdvertisement) -> String {
        if let device { return device }
        guard let adapter = ad.adapter else { return "capture" }
        return ad.adapterName ?? "hci\(adapter)"
    }

    /// `1700000000.250000 hci0 C0:FF:EE:00:00:01 ibeacon E2C56DB5-…/1/42 tx=-59 rssi=-61`
    func line(_ ad: BeaconAdvertisement, device: String) -> String {
        var text = String(format: "%.6f", ad.time) + " \(device) \(ad.address) \(ad.frame.kind) "
        text += ad.identity?.text ?? "-"
        if let tx = ad.frame.powerAtOneMeter { text += " tx=\(tx)" }
        text += " rssi=" + (ad.rssi.map { "\($0)" } ?? "n/a")
        if case .eddystoneTLM(let tlm) = ad.frame {
            text += " battery=\(tlm.batteryMillivolts)mV"
            text += " temp=" + (tlm.temperatureCelsius.map { "\($0)C" } ?? "n/a")
            text += " count=\(tlm.advertisementCount) uptime=\(tlm.uptimeSeconds)s"
        }
        return text
    }

    func row(_ ad: BeaconAdvertisement, device: String) -> Row {
        var telemetry: Telemetry?
        if case .eddystoneTLM(let tlm) = ad.frame {
            telemetry = Telemetry(tlm)
        } else if let tlm = ad.telemetry {
            telemetry = Telemetry(tlm)
        }
        return Row(
            t: (ad.time * 1_000_000).rounded() / 1_000_000, device: device, address: ad.address.text,
            addressType: ad.addressType == 0 ? "public" : ad.addressType == 1 ? "random" : "\(ad.addressType)",
            kind: ad.frame.kind, identity: ad.identity?.text, tx: ad.frame.powerAtOneMeter, rssi: ad.rssi,
            telemetry: telemetry)
    }
}
