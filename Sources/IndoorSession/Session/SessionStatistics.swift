/// What a ``LocationSession`` has done so far: counts for logs, summaries and metrics.
public struct SessionStatistics: Hashable, Sendable {
    /// Sightings taken (used or not).
    public var sightings = 0
    /// Sightings refused at ingest: a non-finite time, or an RSSI that is not finite or outside the physical
    /// range (``IndoorModel/Sighting/physicalRSSIRange``).
    public var refused = 0
    /// Sightings of radios that are not nodes of the venue (positioning ignores them; peers and monitored
    /// beacons usually are such radios).
    public var unknownNodes = 0
    /// Fixes reported.
    public var fixes = 0
    /// Locates that gave no fix, by ``IndoorPositioning/NoFix`` code name.
    public var noFix: [String: Int] = [:]
    /// Fixes given by the fallback method, by the session method's ``IndoorPositioning/NoFix`` code name.
    public var fallbacks: [String: Int] = [:]
    /// Zone events reported (check-ins, check-outs, dwells).
    public var zoneEvents = 0
    /// Monitoring events reported.
    public var monitorEvents = 0
    /// Peer events reported.
    public var peerEvents = 0
    /// Sightings of one node by another (``IndoorPositioning/NodeLinkCalibration``) that positioning took: links for
    /// self-calibration, never a device, a fix or a zone event.
    public var nodeLinks = 0
    /// Sightings of one node by another that could not be used (an unknown node at either end, a node hearing
    /// itself, two floors); they make no device either.
    public var ignoredNodeLinks = 0
    /// Inputs whose time was further than the horizon (1 h by default) from the session's present: they did not
    /// move it (``IndoorModel/DataClock``), so one device's far-off clock cannot check everyone out.
    public var clockOutliers = 0
    /// Devices let go after ``SessionConfiguration/deviceMemory`` seconds of silence, once no zone rule needed them.
    public var forgottenDevices = 0
    /// Devices let go early because ``SessionConfiguration/maximumDevices`` were held (the one silent longest first).
    public var evictedDevices = 0

    /// All zeros: the statistics of a session that has taken nothing (set the counts for an app's tests).
    public init() {}
}
