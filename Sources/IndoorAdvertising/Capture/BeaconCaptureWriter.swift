import IndoorModel

/// Builds a btsnoop capture of iBeacon advertisements one sighting at a time, in constant memory.
///
/// The streaming form of ``BeaconCapture/btsnoop(sightings:datalink:beaconFor:addressFor:)``: append sightings
/// in time order and take the bytes now and then (``takeBytes()``) to write them to a file; the bytes in all are
/// the same as that function's for the same sightings. Holds one adapter index per distinct device.
public struct BeaconCaptureWriter {
    private var writer: BtsnoopWriter
    private var adapters: [String: UInt16] = [:]
    private let beaconFor: (SightingSource) -> BeaconID?
    private let addressFor: (BeaconID) -> BluetoothAddress
    /// How many sightings were appended (1-based positions name sightings in errors).
    public private(set) var count = 0

    /// A capture with just its file header.
    ///
    /// - Parameters:
    ///   - datalink: the framing (by default the Linux monitor datalink, one adapter per device).
    ///   - beaconFor: the beacon identity of a sighting's source (default ``BeaconCapture/beaconIdentity(_:)``).
    ///   - addressFor: the advertiser address of a beacon (default ``BeaconCapture/address(of:)``).
    public init(
        datalink: BtsnoopDatalink = .linuxMonitor,
        beaconFor: @escaping (SightingSource) -> BeaconID? = BeaconCapture.beaconIdentity,
        addressFor: @escaping (BeaconID) -> BluetoothAddress = BeaconCapture.address(of:)
    ) {
        writer = BtsnoopWriter(datalink: datalink)
        self.beaconFor = beaconFor
        self.addressFor = addressFor
    }

    /// The bytes appended since the last call (the file header first), leaving the buffer empty.
    public mutating func takeBytes() -> [UInt8] {
        writer.takeBytes()
    }

    /// The bytes not yet taken, in bytes.
    public var pendingByteCount: Int { writer.bytes.count }

    /// Appends one advertising report for `sighting` (and a new adapter record for a device not seen before).
    ///
    /// Sightings must come in time order (the capture's record order is the append order).
    ///
    /// - Throws: ``AdvertisingError`` (`encoding`) when the source has no beacon identity, or when the device is
    ///   beyond the 65 536 adapter indexes of a Linux monitor capture.
    public mutating func append(_ sighting: Sighting) throws {
        try append(sighting, position: count + 1)
    }

    /// Appends `sighting`, naming it `sighting <position>` in errors (1-based).
    mutating func append(_ sighting: Sighting, position: Int) throws {
        count += 1
        guard let beacon = beaconFor(sighting.source) else {
            throw AdvertisingError(
                code: .encoding,
                message: "sighting \(position) (node '\(sighting.source.text)') has no beacon identity to advertise")
        }
        var adapter: UInt16 = 0
        if writer.datalink == .linuxMonitor {
            if let known = adapters[sighting.device] {
                adapter = known
            } else {
                guard adapters.count <= Int(UInt16.max) else {
                    throw AdvertisingError(
                        code: .encoding,
                        message:
                            "sighting \(position) (device '\(sighting.device)'): more than 65536 devices do not fit the adapter indexes of a Linux monitor capture"
                    )
                }
                adapter = UInt16(adapters.count)
                adapters[sighting.device] = adapter
                let short = sighting.device.utf8.count <= 8
                writer.appendNewIndex(
                    adapter: adapter, address: BluetoothAddress(rawValue: 0x00_1A_7D_DA_71_00 + UInt64(adapter)),
                    name: short ? sighting.device : "hci\(adapter)", unixTime: sighting.time)
                if !short {
                    writer.appendAdapterName(adapter: adapter, name: sighting.device, unixTime: sighting.time)
                }
            }
        }
        let power = BeaconCapture.clampedInt8(sighting.txPower ?? -59)
        let report = AdvertisingReport(
            format: .legacy, eventType: 0x03, addressType: 1, address: addressFor(beacon),
            rssiDBm: BeaconCapture.clampedInt8(sighting.rssi, max: 20),
            data: IBeacon(id: beacon, measuredPowerDBm: power).advertisingData)
        try writer.appendAdvertisingReports([report], unixTime: sighting.time, adapter: adapter)
    }
}
