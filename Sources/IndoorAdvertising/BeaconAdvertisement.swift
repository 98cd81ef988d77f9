import IndoorModel

/// One beacon advertisement heard in a capture: when, from whom, which frame, how strong.
public struct BeaconAdvertisement: Hashable, Sendable {
    /// Unix time, seconds.
    public var time: Double
    /// The receiving adapter's index (Linux monitor captures), nil when the capture does not say.
    public var adapter: UInt16?
    /// The receiving adapter's name from the capture (Linux monitor "new index" record, e.g. `hci0`), when known;
    /// at most 8 ASCII characters, as the monitor format stores it.
    public var adapterName: String? {
        get { AdapterName.text(packedAdapterName) }
        set { packedAdapterName = AdapterName.pack(newValue) }
    }
    /// The name's bytes packed little-endian (0 = none), so that the value stays free of references.
    var packedAdapterName: UInt64 = 0
    /// The advertiser's address and its type (`0` public, `1` random).
    public var address: BluetoothAddress
    public var addressType: UInt8
    public var frame: BeaconFrame
    /// Received signal strength, dBm; nil when the controller reported it as not available.
    public var rssi: Int?
    /// The transmit power stated in an extended report, dBm, when available.
    public var reportedTxPower: Int?
    /// For an Eddystone identity frame, the latest TLM frame heard from the same address.
    public var telemetry: EddystoneTLM?
    /// For a TLM frame, the identity frame last heard from the same address.
    public var telemetryOwner: BeaconFrame?

    public init(
        time: Double, adapter: UInt16? = nil, adapterName: String? = nil, address: BluetoothAddress, addressType: UInt8 = 0, frame: BeaconFrame,
        rssiDBm: Int?, reportedTxPowerDBm: Int? = nil, telemetry: EddystoneTLM? = nil,
        telemetryOwner: BeaconFrame? = nil
    ) {
        self.time = time
        self.adapter = adapter
        self.packedAdapterName = AdapterName.pack(adapterName)
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

/// Adapter names of up to 8 ASCII bytes packed into a `UInt64`.
enum AdapterName {
    static func pack(_ name: String?) -> UInt64 {
        guard let name else { return 0 }
        var value: UInt64 = 0
        for (index, byte) in name.utf8.prefix(8).enumerated() {
            value |= UInt64(byte) << (8 * UInt64(index))
        }
        return value
    }

    static func text(_ packed: UInt64) -> String? {
        guard packed != 0 else { return nil }
        var text = ""
        var rest = packed
        while rest != 0 {
            text.unicodeScalars.append(Unicode.Scalar(UInt8(truncatingIfNeeded: rest)))
            rest >>= 8
        }
        return text
    }
}
