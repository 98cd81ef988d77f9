import IndoorModel

/// A method whose fixes the engine smooths per device with a ``PositionTrack`` (constant-velocity Kalman filter).
///
/// On its own (for example as a ``Blend`` member) it answers exactly as `base`. In a ``PositioningEngine`` the
/// engine feeds each device's track a fix of `base` every ``PositionTrack/Settings/step`` seconds of sightings,
/// and ``PositioningEngine/locate(device:at:)`` answers the track moved to the asked time and updated with the fix
/// there (without storing that last update, so asking never changes the engine). Named `<base>+track`.
public struct Tracked: PositioningMethod {
    public let name: String
    public var base: any PositioningMethod
    public var settings: PositionTrack.Settings

    public init(_ base: any PositioningMethod, settings: PositionTrack.Settings = PositionTrack.Settings()) {
        self.base = base
        self.settings = settings
        self.name = base.name + "+track"
    }

    public func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
        base.estimate(from: readings)
    }
}
