/// One sighting the gateway forwards: the item of `POST /v1/sightings` (docs/FORMATS.md's JSON Lines object), and
/// the row of a queued batch file.
struct ForwardedSighting: Codable, Hashable, Sendable {
    /// When the advertisement was heard: the btsnoop record's timestamp, Unix seconds.
    var t: Double
    /// The advertiser: a beacon identity (`UUID/major/minor`, `eddystone-uid:…`), a device named by its
    /// identity resolving key, or an address `AA:BB:CC:DD:EE:FF` (with `--addresses`).
    var device: String
    /// The gateway that heard it (`--node`).
    var node: String
    /// Received signal strength, dBm.
    var rssi: Int
    /// The advertiser's stated power at 1 m, dBm, when its frame carries it.
    var tx: Int?
}
