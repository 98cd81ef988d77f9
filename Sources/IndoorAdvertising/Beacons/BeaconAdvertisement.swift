import IndoorModel

/// One beacon advertisement heard in a capture: when, from whom, which frame, how strong.
public struct BeaconAdvertisement: Hashable, Sendable {
    /// Unix time, seconds.
    public var time: Double
    /// The receiving adapter's index (Linux monitor captures), nil when the capture does not say.
    public var adapter: UInt16?
    /// The receiving adapter's name from the capture (Linux monitor "new index" record, e.g. `hci0`, or an
    /// `indoor` adapter-name note), when known.
    public var adapterName: String?
    /// The advertiser's address and its type (`0` public, `1` random).
    public var address: BluetoothAddress
    /// The advertiser's address type: `0` public, `1` random.
    public var addressType: UInt8
    /// The beacon frame found in the advertising data.
    public var frame: BeaconFrame
    /// Received signal strength, dBm; nil when the controller reported it as not available.
    public var rssi: Int?
    /// The transmit power stated in an extended report, dBm, when available.
    public var reportedTxPower: Int?
    /// For an Eddystone identity frame, the latest TLM frame heard from the same address.
    public var telemetry: EddystoneTLM?
    /// For a TLM frame, the identity frame last heard from the same address.
    public var telemetryOwner: BeaconFrame?

    /// An advertisement heard at `time` (Unix seconds) with `rssiDBm` (dBm, nil when not available): what an app
    /// that scans with its own Bluetooth code makes from a frame it decoded (``BeaconFrame/decode(advertisingData:)``),
    /// then turns into a sighting with ``sighting(device:)``.
    public init(
        time: Double, adapter: UInt16? = nil, adapterName: String? = nil, address: BluetoothAddress,
        addressType: UInt8 = 0, frame: BeaconFrame,
        rssiDBm: Int?, reportedTxPowerDBm: Int? = nil, telemetry: EddystoneTLM? = nil,
        telemetryOwner: BeaconFrame? = nil
    ) {
        self.time = time
        self.adapter = adapter
        self.adapterName = adapterName
        self.address = address
        self.addressType = addressType
        self.frame = frame
        self.rssi = rssiDBm
        self.reportedTxPower = reportedTxPowerDBm
        self.telemetry = telemetry
        self.telemetryOwner = telemetryOwner
    }

    /// The advertised identity; for a TLM frame, that of the identity frame from the same address, if any.
    public var identity: SightingSource? { frame.identity ?? telemetryOwner?.identity }

    /// This advertisement as a sighting of its beacon by `device`, with the frame's power at 1 m as tx power.
    ///
    /// - Returns: nil for TLM frames (they repeat a beacon already sighted) and when RSSI is not available.
    public func sighting(device: String) -> Sighting? {
        guard let rssi, let source = frame.identity else { return nil }
        return Sighting(
            time: time, device: device, source: source, rssi: Double(rssi),
            txPower: frame.powerAtOneMeter.map(Double.init))
    }
}
