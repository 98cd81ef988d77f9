import ArgumentParser
import Foundation
import IndoorModel
import IndoorServer

/// `indoor serve`'s options on how devices are named and how long open visits stay open (docs/PRIVACY.md).
struct ServePrivacyOptions: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            "Keep the device ids gateways derive from the radio (addresses, irk: ids, beacon ids) as they are, "
                + "instead of a keyed hash anon-<16 hex> (INDOOR_RAW_DEVICE_IDS=1).",
            discussion: """
                By default such an id is replaced at ingest, before any table, stream, log line or topic sees it; \
                ids your own apps post (phone-anna), the --irks devices and the --device-names names stay readable.
                """))
    var rawDeviceIds = false

    @Option(
        help: ArgumentHelp(
            "Enrolled devices: a JSON file {\"AA:BB:CC:DD:EE:FF\": \"keys-anna\", …} of gateway ids and the names "
                + "the server calls them (INDOOR_DEVICE_NAMES).",
            valueName: "path"))
    var deviceNames: String?

    @Option(
        help: ArgumentHelp(
            "Close as lost a stored visit no session holds open this long after its check-in (data time): 90s, 30m, "
                + "12h, 7d, or forever.",
            valueName: "duration"))
    var retainOpenVisits: String = "1d"

    func validate() throws {
        guard ServeCommand.duration(retainOpenVisits) != nil else {
            throw ValidationError(
                "--retain-open-visits '\(retainOpenVisits)': expected a duration such as 90s, 30m, 12h, 7d, or forever")
        }
    }

    /// The settings of these options; `readable` are names that stay as they are (the IRK file's devices).
    /// - Throws: ``CommandFailure`` naming the names file when it cannot be read.
    func settings(readable: Set<String>) throws -> DeviceIDSettings {
        let environment = ProcessInfo.processInfo.environment
        let raw = rawDeviceIds || ["1", "true", "yes"].contains(environment["INDOOR_RAW_DEVICE_IDS"] ?? "")
        let path = deviceNames ?? environment["INDOOR_DEVICE_NAMES"].flatMap { $0.isEmpty ? nil : $0 }
        return DeviceIDSettings(raw: raw, names: try path.map(Self.names) ?? [:], readable: readable)
    }

    /// The seconds of `--retain-open-visits`.
    var openVisits: Double { ServeCommand.duration(retainOpenVisits) ?? 86400 }

    /// The names file at `path`: gateway ids → names.
    static func names(path: String) throws -> [String: String] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure(
                "cannot read the device names file '\(path)' (--device-names): \(CommandFailure.reason(error))")
        }
        let names: [String: String]
        do {
            names = try JSONFormat.decode([String: String].self, from: data, file: path)
        } catch {
            throw CommandFailure("\(error) (--device-names expects {\"gateway id\": \"name\"})")
        }
        if let (id, _) = names.first(where: { $0.value.isEmpty || $0.value.count > VenueHub.maximumIDLength }) {
            throw CommandFailure(
                "--device-names '\(path)': the name of '\(id)' must have 1…\(VenueHub.maximumIDLength) characters")
        }
        return names
    }
}
