/// One advertisement as a Bluetooth controller reports it to the host (HCI LE advertising report).
public struct AdvertisingReport: Hashable, Sendable {
    /// Which HCI event carried the report.
    public enum Format: Hashable, Sendable {
        /// LE Advertising Report (LE Meta subevent 0x02).
        case legacy
        /// LE Extended Advertising Report (LE Meta subevent 0x0D).
        case extended
    }

    /// Which HCI event carried the report.
    public var format: Format
    /// The event type: legacy `0` ADV_IND … `4` SCAN_RSP; extended, a bit field whose bits 5–6 are the
    /// data status (0 complete, 1 more to come, 2 truncated).
    public var eventType: UInt16
    /// `0` public, `1` random (see the Core Specification for the others).
    public var addressType: UInt8
    /// The advertiser's device address.
    public var address: BluetoothAddress
    /// Received signal strength, dBm; nil when the controller reported 127 (not available).
    public var rssi: Int8?
    /// The transmit power the advertiser stated (extended reports), dBm; nil when not available.
    public var txPower: Int8?
    /// The advertising set id (extended reports); nil when absent (0xFF) or for legacy reports.
    public var sid: UInt8?
    /// The advertising data (AD structures), complete after reassembly of extended fragments.
    public var data: [UInt8]

    /// A report; `rssiDBm` and `txPowerDBm` are dBm, nil for not available (127 on the wire).
    public init(
        format: Format = .legacy, eventType: UInt16 = 0x03, addressType: UInt8 = 0, address: BluetoothAddress,
        rssiDBm: Int8?, txPowerDBm: Int8? = nil, sid: UInt8? = nil, data: [UInt8]
    ) {
        self.format = format
        self.eventType = eventType
        self.addressType = addressType
        self.address = address
        self.rssi = rssiDBm
        self.txPower = txPowerDBm
        self.sid = sid
        self.data = data
    }
}

/// A report borrowed from an event's bytes: the hot path's form of ``AdvertisingReport``.
struct ReportView {
    var format: AdvertisingReport.Format
    var eventType: UInt16
    var addressType: UInt8
    var address: BluetoothAddress
    /// 127 = not available.
    var rssi: Int8
    /// 127 = not available.
    var txPower: Int8
    /// 0xFF = no ADI.
    var sid: UInt8
    /// False when the controller truncated the data (extended data status 2).
    var dataComplete: Bool
    var data: UnsafeRawBufferPointer

    var report: AdvertisingReport {
        AdvertisingReport(
            format: format, eventType: eventType, addressType: addressType, address: address,
            rssiDBm: rssi == 127 ? nil : rssi, txPowerDBm: txPower == 127 ? nil : txPower,
            sid: sid == 0xFF || format == .legacy ? nil : sid, data: Array(data))
    }
}
