import ArgumentParser
import Foundation
import IndoorAdvertising
import IndoorGateways
import IndoorModel

/// `indoor decode FILE`: beacon advertisements in a btsnoop capture, as lines, JSON Lines or sightings.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode beacon advertisements (iBeacon, AltBeacon, Eddystone) from a btsnoop capture.",
        discussion: """
            Reads btsnoop files with datalink 1001 (HCI), 1002 (H4, Android's btsnoop_hci.log) and 2001 \
            (Linux monitor, `btmon -w`). Prints one line per beacon advertisement: time (Unix seconds), device, \
            address, frame kind, identity, tx (dBm at 1 m) and RSSI (dBm). Corrupt or truncated records are \
            reported on stderr with their byte offset; decoding goes on, and the exit status is 1 if anything \
            was skipped.
            """)

    @Argument(help: "A btsnoop capture file.")
    var file: String

    @Flag(help: "Print JSON Lines instead of text.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Write the sightings (t,device,node,rssi,tx) in the dataset layout to this CSV file.",
            discussion: "It must not exist (see --force) and must not be the capture itself.",
            valueName: "file.csv"))
    var sightings: String?

    @Flag(
        help: ArgumentHelp(
            "Replace an existing --sightings file.",
            discussion: """
                The CSV is written to a temporary file beside it and renamed into place when decoding ends, so a \
                failed or interrupted run leaves the old file as it was. A folder, or the capture itself, is \
                never replaced.
                """))
    var force = false

    @Option(help: "Device id for the sightings (default: the capture's adapter name, e.g. hci0, or 'capture').")
    var device: String?

    @Flag(help: "Print no line per advertisement (with --sightings).")
    var quiet = false

    @Option(
        help: ArgumentHelp(
            "A JSON file of identity resolving keys by device name, {\"anna-iphone\": \"<32 hex digits>\"}: the "
                + "advertisements of the private addresses they resolve are printed too, as `rpa` lines naming the "
                + "device (docs/GATEWAYS.md).",
            valueName: "path"))
    var irks: String?

    func validate() throws {
        if let device, device.isEmpty || device.contains(where: { $0 == "," || $0.isNewline }) {
            throw ValidationError(
                "--device '\(device)' cannot be a device id: it must be non-empty, without commas or line breaks")
        }
    }

    func run() throws {
        let options = DecodeOutput(
            device: device, json: json, quiet: quiet, sightings: sightings.map { URL(fileURLWithPath: $0) },
            force: force)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
            throw CommandFailure("\(file): no such file")
        }
        guard !isDirectory.boolValue, FileManager.default.isReadableFile(atPath: file) else {
            throw CommandFailure("\(file): \(isDirectory.boolValue ? "a folder, not a capture file" : "not readable")")
        }
        let summary: DecodeOutput.Summary
        do {
            summary = try options.run(
                file: URL(fileURLWithPath: file), output: { print($0) },
                problems: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
        } catch let failure as CommandFailure {
            throw failure
        } catch let error as AdvertisingError {
            throw CommandFailure("\(file): \(error)")
        } catch {
            throw CommandFailure("\(file): \(error.localizedDescription)")
        }
        var note = "\(summary.beaconAdvertisements) beacon advertisements in \(summary.records) records"
        if let irks {
            let resolved = try Self.resolvedAdvertisements(
                file: file, resolver: try IRKFile.resolver(path: irks), devices: Set(try IRKFile.keys(path: irks).keys),
                json: json, quiet: quiet, output: { print($0) })
            note += ", \(resolved) advertisements of private addresses resolved with --irks"
        }
        if sightings != nil { note += ", \(summary.sightings) sightings written" }
        if summary.problems > 0 {
            note +=
                "; \(summary.problems) problem\(summary.problems == 1 ? "" : "s") (records or advertisements skipped)"
        }
        FileHandle.standardError.write(Data((note + "\n").utf8))
        if summary.problems > 0 { throw ExitCode.failure }
    }

    /// One `rpa` row of JSON Lines.
    struct ResolvedRow: Encodable {
        var t: Double
        var device: String
        var kind = "rpa"
        var rssi: Int
    }

    /// Prints a line per advertisement of `file` whose resolvable private address a key of `resolver` resolves to one
    /// of `devices`: `<t> <device> rpa rssi=<dBm>`, or a JSON Lines row `{"t", "device", "kind": "rpa", "rssi"}`.
    /// - Returns: How many there were.
    static func resolvedAdvertisements(
        file: String, resolver: IRKResolver, devices names: Set<String>, json: Bool, quiet: Bool,
        output: (String) -> Void
    ) throws -> Int {
        let encoder = JSONFormat.encoder()
        var decoder = GatewayDecoder(node: "capture", resolver: resolver, addresses: false)
        var count = 0
        try BtsnoopFollower(path: file, follow: false).run(
            decoder: &decoder, shouldStop: { false },
            onSighting: { sighting in
                guard names.contains(sighting.device) else { return }
                count += 1
                guard !quiet else { return }
                if json {
                    let row = ResolvedRow(t: sighting.t, device: sighting.device, rssi: sighting.rssi)
                    if let data = try? encoder.encode(row) { output(String(decoding: data, as: UTF8.self)) }
                } else {
                    output(String(format: "%.6f", sighting.t) + " \(sighting.device) rpa rssi=\(sighting.rssi)")
                }
            }, onProblem: { _ in }, onProgress: { _ in })
        return count
    }
}
