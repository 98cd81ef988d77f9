/// What the platform allows, as an adapter reports it when observation starts.
public struct MonitorCapabilities: Hashable, Sendable {
    /// Location services are switched on.
    public var locationServicesEnabled: Bool
    /// The user authorised the app to use location.
    public var authorized: Bool
    /// The device can monitor beacon regions.
    public var monitoringAvailable: Bool
    /// The device can range beacons.
    public var rangingAvailable: Bool

    /// Everything available: the case of a gateway or a replay.
    public static let all = MonitorCapabilities(
        locationServicesEnabled: true, authorized: true, monitoringAvailable: true, rangingAvailable: true)

    /// What the platform reports; an adapter passes it to ``BeaconMonitor/start(_:at:capabilities:)``, which throws
    /// the ``problem`` of the first one missing.
    public init(locationServicesEnabled: Bool, authorized: Bool, monitoringAvailable: Bool, rangingAvailable: Bool) {
        self.locationServicesEnabled = locationServicesEnabled
        self.authorized = authorized
        self.monitoringAvailable = monitoringAvailable
        self.rangingAvailable = rangingAvailable
    }

    /// The first reason these capabilities do not allow observing, if any.
    public var problem: MonitorError? {
        if !locationServicesEnabled { return .locationServicesDisabled }
        if !authorized { return .notAuthorized }
        if !monitoringAvailable { return .monitoringUnsupported }
        if !rangingAvailable { return .rangingUnsupported }
        return nil
    }
}
