import Foundation
import IndoorModel

/// One beacon as CoreLocation ranges it (a `CLBeacon`'s fields), before it becomes a sighting.
///
/// Platform-free, so that the translation the Apple shell relies on is built and tested on Linux.
public struct RangedBeaconReading: Hashable, Sendable {
    /// The proximity UUID.
    public var uuid: UUID
    /// Major.
    public var major: UInt16
    /// Minor.
    public var minor: UInt16
    /// `CLBeacon.rssi`, dBm averaged by the system over about a second; **0 means not measured**.
    public var rssi: Int
    /// `CLBeacon.accuracy`, metres; negative when unknown.
    public var accuracy: Double
    /// When the reading was made, Unix seconds (`CLBeacon.timestamp`).
    public var timestamp: Double

    /// A reading with the fields of a `CLBeacon`: `rssi` dBm (0: not measured), `accuracy` metres (negative:
    /// unknown), `timestamp` Unix seconds. An app that handles `CLBeacon`s itself makes one per beacon and asks it
    /// for ``sighting(device:)``.
    public init(uuid: UUID, major: UInt16, minor: UInt16, rssi: Int, accuracy: Double, timestamp: Double) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.rssi = rssi
        self.accuracy = accuracy
        self.timestamp = timestamp
    }

    /// The beacon's identity.
    public var beacon: BeaconID { BeaconID(uuid: uuid, major: major, minor: minor) }

    /// The reading as a sighting of the beacon by `device`, or `nil` when it carries no measurement.
    ///
    /// CoreLocation keeps reporting a beacon for a few seconds after its last packet, with `rssi` 0 (and
    /// `accuracy` −1): such a reading is *not measured*, not a 0 dBm signal, and becomes no sighting. Nor does one
    /// whose RSSI is outside ``IndoorModel/Sighting/physicalRSSIRange`` or whose time is not finite.
    public func sighting(device: String) -> Sighting? {
        guard rssi != 0, timestamp.isFinite else { return nil }
        let sighting = Sighting(time: timestamp, device: device, source: .beacon(beacon), rssi: Double(rssi))
        return sighting.problem == nil ? sighting : nil
    }
}
