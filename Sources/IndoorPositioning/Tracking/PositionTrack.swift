import IndoorModel

/// A constant-velocity Kalman filter over one device's horizontal fixes.
///
/// The state is position (metres, venue frame) and velocity (m/s) on each horizontal axis; the axes share one
/// 2 × 2 covariance because process and measurement noise are isotropic. Between fixes the device keeps its
/// velocity, disturbed by white-noise acceleration of spectral density ``Configuration/acceleration`` (m²/s³); a fix
/// measures position with per-axis variance accuracy² / 2. A fix more than ``Configuration/gate`` standard deviations
/// away is treated as an outlier, and after ``Configuration/outliersBeforeReset`` of them in a row the track restarts
/// there; a gap longer than ``Configuration/maximumGap`` s or a change of floor also restarts it.
public struct PositionTrack: Hashable, Sendable {
    /// Tuning of the tracker.
    public struct Configuration: Hashable, Sendable {
        /// Spectral density of the white-noise acceleration, m²/s³ (about a walking person's).
        public var acceleration: Double
        /// Standard deviation of the speed of a new track, m/s.
        public var initialSpeed: Double
        /// Seconds of silence after which the track restarts.
        public var maximumGap: Double
        /// Innovations beyond this many standard deviations are outliers.
        public var gate: Double
        /// Consecutive outliers after which the track restarts at the latest fix.
        public var outliersBeforeReset: Int
        /// Seconds between the fixes the engine feeds the track as sightings arrive.
        public var step: Double

        /// - Parameters:
        ///   - acceleration: White-noise acceleration density, m²/s³ (default 0.5).
        ///   - initialSpeed: Speed uncertainty of a new track, m/s (default 1).
        ///   - maximumGap: Seconds after which the track restarts (default 10).
        ///   - gate: Outlier gate in standard deviations (default 4).
        ///   - outliersBeforeReset: Consecutive outliers that restart the track (default 2).
        ///   - step: Seconds between fixes fed as sightings arrive (default 1).
        public init(
            acceleration: Double = 0.5, initialSpeed: Double = 1, maximumGap: Double = 10, gate: Double = 4,
            outliersBeforeReset: Int = 2, step: Double = 1
        ) {
            self.acceleration = acceleration.isFinite && acceleration > 0 ? acceleration : 0.5
            self.initialSpeed = initialSpeed.isFinite && initialSpeed >= 0 ? initialSpeed : 1
            self.maximumGap = maximumGap.isFinite && maximumGap > 0 ? maximumGap : 10
            self.gate = gate.isFinite && gate > 0 ? gate : 4
            self.outliersBeforeReset = max(0, outliersBeforeReset)
            self.step = step.isFinite && step > 0 ? step : 1
        }
    }

    /// Position, metres in the venue frame.
    public private(set) var x: Double
    /// Position, metres in the venue frame.
    public private(set) var y: Double
    /// Velocity, m/s.
    public private(set) var vx: Double
    public private(set) var vy: Double
    /// Per-axis covariance: position variance (m²), position–velocity (m²/s), velocity variance (m²/s²).
    public private(set) var pp: Double
    public private(set) var pv: Double
    public private(set) var vv: Double
    /// The time of the state, seconds.
    public private(set) var time: Double
    /// The floor of the track's fixes, `nil` without floors (a fix on another floor restarts the track).
    public private(set) var floor: Int?
    private var outliers = 0

    /// A new track at `estimate`, at rest with speed uncertainty ``Configuration/initialSpeed``.
    init(_ estimate: Estimate, at time: Double, configuration settings: Configuration) {
        x = estimate.position.x
        y = estimate.position.y
        vx = 0
        vy = 0
        pp = Self.measurementVariance(estimate)
        pv = 0
        vv = settings.initialSpeed * settings.initialSpeed
        self.time = time
        floor = estimate.floor
    }

    /// Per-axis variance of a fix's position, m² (accuracy² / 2, at least 0.05).
    static func measurementVariance(_ estimate: Estimate) -> Double {
        let accuracy = estimate.accuracy.isFinite ? estimate.accuracy : 10
        return max(accuracy * accuracy / 2, 0.05)
    }

    /// The state moved forward to `time` (no change for earlier times).
    package func predicted(to time: Double, configuration settings: Configuration) -> PositionTrack {
        let dt = time - self.time
        guard dt > 0 else { return self }
        var next = self
        let q = settings.acceleration
        next.x += dt * vx
        next.y += dt * vy
        next.pp = pp + 2 * dt * pv + dt * dt * vv + q * dt * dt * dt / 3
        next.pv = pv + dt * vv + q * dt * dt / 2
        next.vv = vv + q * dt
        next.time = time
        return next
    }

    /// Takes the fix `estimate` made at `time`.
    public mutating func update(with estimate: Estimate, at time: Double, configuration settings: Configuration) {
        let p = estimate.position
        guard p.x.isFinite, p.y.isFinite else { return }
        if time - self.time > settings.maximumGap || estimate.floor != floor {
            self = PositionTrack(estimate, at: time, configuration: settings)
            return
        }
        var next = predicted(to: time, configuration: settings)
        let r = Self.measurementVariance(estimate)
        let s = next.pp + r
        let ex = p.x - next.x
        let ey = p.y - next.y
        if (ex * ex + ey * ey) / s > settings.gate * settings.gate {
            next.outliers += 1
            if next.outliers > settings.outliersBeforeReset {
                self = PositionTrack(estimate, at: time, configuration: settings)
            } else {
                self = next
            }
            return
        }
        let kp = next.pp / s
        let kv = next.pv / s
        next.x += kp * ex
        next.y += kp * ey
        next.vx += kv * ex
        next.vy += kv * ey
        let pp = next.pp
        let pv = next.pv
        next.pp = (1 - kp) * pp
        next.pv = (1 - kp) * pv
        next.vv -= kv * pv
        next.outliers = 0
        self = next
    }

    /// The track's estimate: its position at `z` metres and its floor; accuracy √(2 · position variance).
    public func estimate(z: Double, confidence: Double) -> Estimate {
        Estimate(
            position: Point3D(x: x, y: y, z: z), floor: floor, accuracy: (2 * pp).squareRoot(),
            confidence: confidence)
    }
}
