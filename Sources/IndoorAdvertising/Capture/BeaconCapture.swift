import IndoorModel

/// Turns beacon sightings into a btsnoop capture of iBeacon advertisements, as receivers would have logged them.
public enum BeaconCapture {
    /// The identity of a sighting's source: a beacon, or a node id in `UUID/major/minor` form; nil otherwise.
    public static func beaconIdentity(_ source: SightingSource) -> BeaconID? {
        switch source {
        case .beacon(let id): id
        case .node(let text): try? BeaconID(parsing: text)
        }
    }

    /// A btsnoop capture holding one iBeacon advertising report per sighting, in time order.
    ///
    /// Each sighting becomes an LE Advertising Report (ADV_NONCONN_IND) at its time (Unix seconds) with its
    /// RSSI (rounded, clamped to −127…20 dBm) and its tx power as measured power (−59 dBm when absent). The
    /// advertiser address comes from `addressFor` (by default a static random address derived from the beacon
    /// identity, so one beacon keeps one address). With the Linux monitor datalink (the default) each distinct
    /// `device` is its own adapter, announced by a "new index" record named after the device (`hci<N>` there when
    /// the id is longer than 8 bytes, with the full id in an `indoor` adapter-name note), so
    /// `indoor decode --sightings` gives the devices back. Other datalinks have no adapter, and the device is not
    /// recorded.
    ///
    /// - Parameters:
    ///   - beaconFor: the beacon identity of a sighting's source (default ``beaconIdentity(_:)``), e.g. from
    ///     `Node.beacon` when sources are node ids.
    ///   - addressFor: the advertiser address of a beacon (default ``address(of:)``, a static random address).
    /// - Throws: ``AdvertisingError`` (`encoding`) naming the first sighting whose source has no beacon identity,
    ///   or the first device beyond 65 536 with the Linux monitor datalink (one adapter index each).
    public static func btsnoop(
        sightings: [Sighting], datalink: BtsnoopDatalink = .linuxMonitor,
        beaconFor: (SightingSource) -> BeaconID? = beaconIdentity,
        addressFor: (BeaconID) -> BluetoothAddress = address(of:)
    ) throws -> [UInt8] {
        try withoutActuallyEscaping(beaconFor) { beaconFor in
            try withoutActuallyEscaping(addressFor) { addressFor in
                var writer = BeaconCaptureWriter(datalink: datalink, beaconFor: beaconFor, addressFor: addressFor)
                let ordered = sightings.enumerated().sorted {
                    ($0.element.time, $0.offset) < ($1.element.time, $1.offset)
                }
                for (position, sighting) in ordered {
                    try writer.append(sighting, position: position + 1)
                }
                return writer.takeBytes()
            }
        }
    }

    /// A static random address (top two bits set) derived from the beacon identity (FNV-1a).
    public static func address(of beacon: BeaconID) -> BluetoothAddress {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var bytes = uuidBytes(beacon.uuid)
        bytes.appendU16BE(beacon.major)
        bytes.appendU16BE(beacon.minor)
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return BluetoothAddress(rawValue: (hash & 0xFFFF_FFFF_FFFF) | 0xC000_0000_0000)
    }

    static func clampedInt8(_ value: Double, max upper: Double = 127) -> Int8 {
        guard value.isFinite else { return -127 }
        return Int8(Swift.min(upper, Swift.max(-127, value.rounded())))
    }
}
