import IndoorModel

/// Decoding of Bluetooth LE advertisements into beacon frames and sightings.
public enum Advertising {}
