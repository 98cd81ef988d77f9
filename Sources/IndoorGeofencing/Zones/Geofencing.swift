import IndoorModel

/// Region monitoring and ranging (``BeaconMonitor``, ``BeaconObserver``), zones with check-in and check-out
/// (``ZoneEngine``), geolines and peers (``PeerDirectory``). Every part is a pure state machine driven by
/// time-stamped sightings and fixes; docs/GEOFENCING.md describes the behaviour and the zone JSON.
enum Geofencing {}
