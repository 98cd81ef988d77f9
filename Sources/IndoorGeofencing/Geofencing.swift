import IndoorModel

/// Region monitoring and ranging, zones with check-in and check-out, geolines and peers.
public enum Geofencing {}
