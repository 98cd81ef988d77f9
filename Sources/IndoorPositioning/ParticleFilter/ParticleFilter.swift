import Foundation
import IndoorModel
import IndoorRanging

/// A particle filter on the signal itself: each device's position is a cloud of particles (x, y, floor, velocity),
/// moved by a walking motion model and weighed directly by the RSSI likelihood of the readings at each particle's
/// place, from a ``RadioMap`` (per node: mean RSSI, its spread, the chance of hearing it; nodes that should be heard
/// there but are not count against a place).
///
/// Likelihood: the terms of ``PosteriorGrid`` (Student-t about the map's mean, the unheard nodes' term, tempered by
/// the grid's temperature times ``Configuration/evidenceWeight``) at the point nearest each particle of a lattice of
/// the map's grid points about ``Configuration/likelihoodSpacing`` apart. The
/// device's receiver gain offset is estimated online, as a slowly drifting state: each update estimates it per
/// particle with a Gaussian prior about the cloud's running estimate (the spread of that estimate plus a drift of
/// ``Configuration/offsetDrift``), and the cloud's weighted mean and variance become the next update's prior.
///
/// Motion: each axis's velocity follows an Ornstein–Uhlenbeck process (a walker keeps a heading for about
/// ``Configuration/turnTime`` seconds at a typical ``Configuration/speed``), capped at ``Configuration/maximumSpeed``;
/// particles stay inside the grid's box. A particle changes floor with a chance of ``Configuration/floorChangeRate``
/// per second, so the floor follows only evidence that holds over several updates; the reported floor changes only
/// when another floor holds ``Configuration/floorHold`` of the weight (hysteresis), so one strong reading through a
/// slab never switches it. With a ``FloorPlan`` (``floorPlan``), a particle does not walk through a wall of its floor
/// (it stays and its velocity is mirrored off the wall), and when the plan lists floor connections it changes floor
/// at ``Configuration/connectionChangeRate`` inside one (stairs, lifts), elsewhere at the much lower
/// ``Configuration/floorChangeRateElsewhere`` (so a venue whose plan misses a staircase still follows strong evidence).
///
/// Resampling (systematic) when the effective sample size drops below ``Configuration/resampleBelow`` of the
/// particles. A cloud that has lost its device gives way to the readings: with the chance
/// ``Configuration/lostChance`` that the device could be anywhere, that hypothesis's posterior share of the particles
/// is drawn afresh from the readings' posterior (``CloudRecovery``), the rest resampled. Seeded: each device's
/// generator comes from ``Configuration/seed`` and the device id, so the same sightings give the same fixes on every
/// run and platform.
///
/// The estimate is the weighted mean of the particles on the reported floor (the whole belief, not its peak), moved on
/// along their mean velocity by ``Configuration/leadTime`` (within the grid's box); the accuracy radius is the radius
/// that holds ``Configuration/coverage`` of a Gaussian with the cloud's spread plus the distance its mean velocity covers
/// in ``Configuration/lagTime``, scaled by ``Configuration/radiusScale``.
public struct ParticleFilter: SequentialPositioningMethod {
    /// The filter's tuning.
    public struct Configuration: Hashable, Sendable {
        /// Particles per device.
        public var particles: Int
        /// Seconds between updates from a device's sightings.
        public var step: Double
        /// Typical speed along each axis, m/s (the velocity's stationary standard deviation).
        public var speed: Double
        /// Seconds a heading persists (the velocity's correlation time). The default was chosen by measurement on
        /// development sets: docs/notes/particle-filter-heading-time.md.
        public var turnTime: Double
        /// The fastest a particle moves, m/s.
        public var maximumSpeed: Double
        /// The chance per second that a particle moves to a neighbouring floor, without a ``FloorPlan`` that lists
        /// floor connections (anywhere: the filter cannot tell stairs from a slab).
        public var floorChangeRate: Double
        /// With a ``FloorPlan`` that lists floor connections, the chance per second that a particle inside a
        /// connection joining two floors moves to the other (a walker on the stairs is between floors).
        public var connectionChangeRate: Double
        /// With a ``FloorPlan`` that lists floor connections, the chance per second that a particle outside any
        /// connection (or in one that does not join the two floors) moves to a neighbouring floor.
        public var floorChangeRateElsewhere: Double
        /// The share (0.5…1) of the weight another floor needs before the reported floor changes to it.
        public var floorHold: Double
        /// The factor on the grid's temperature at each update (updates come every ``step`` seconds from filtered,
        /// correlated readings, so each counts for less than a snapshot). `auto` chooses it per venue on the survey's
        /// walks when it can (``TrackingValidation``).
        public var evidenceWeight: Double
        /// The share (0…1) of fixes whose truth the accuracy radius should hold.
        public var coverage: Double
        /// The factor on the cloud's radius of ``coverage``.
        public var radiusScale: Double
        /// The factor on the radius of ``coverage`` of the fixes answered from readings alone, before the device has a
        /// cloud (its first second; every fix of a device heard in one scan): the grid posterior's mean and spread,
        /// which sell that posterior's errors short or long by a venue's own amount. `auto` sets it from the survey's
        /// held-out fingerprints (``RadioMapCrossValidation/Outcome/radiusFactor(coverage:)``).
        public var snapshotRadiusScale: Double
        /// Resample when the effective sample size falls below this share of ``particles``.
        public var resampleBelow: Double
        /// The seed of every device's generator (mixed with the device id).
        public var seed: UInt64
        /// Metres between the points particles are weighed at, about: the lattice of the map's grid points nearest
        /// this spacing (every second, third… column and row; every one when the grid's spacing is two thirds of this
        /// or more). A cloud of 1000 covers a few hundred grid points of a fine map; weighing on a coarser lattice
        /// computes fewer likelihoods. The default was chosen by measurement:
        /// docs/notes/particle-filter-likelihood-lattice.md.
        public var likelihoodSpacing: Double
        /// How fast the device's receiver gain offset may drift, dB per √s: the offset's prior at each update is the
        /// cloud's estimate after the update before, with that estimate's variance plus this drift's over the time
        /// between (a random walk), never broader than the posterior's ``PosteriorGrid/Configuration/offsetSigma``
        /// (the prior of a new cloud). The default was chosen with each real dataset held out in turn:
        /// docs/notes/leave-one-venue-out-parameters.md.
        public var offsetDrift: Double
        /// Seconds the estimate trails a moving device by, for the accuracy radius: the radius counts the distance the
        /// cloud's mean velocity covers in this time as spread the cloud does not show (a causal estimate from
        /// readings heard over the last second lags behind a walker; the particles' own spread knows nothing of it).
        /// The default, 0.5 s, is the mean age of a 1 s reading mean: docs/notes/particle-filter-lag-radius.md.
        public var lagTime: Double
        /// Seconds the answer is moved on from the cloud's weighted mean along the cloud's mean velocity: part of the
        /// lag of ``lagTime`` taken out of the estimate itself (the belief is not moved). The default was chosen by
        /// measurement: docs/notes/particle-filter-lead-time.md.
        public var leadTime: Double
        /// The chance (0…1) at each update that the cloud has lost its device, which could then be anywhere on the
        /// map: the prior weight of that hypothesis, whose posterior weight is the share of the particles
        /// ``CloudRecovery`` draws afresh from the readings' own posterior (0: never). The default was chosen on
        /// development sets: docs/notes/particle-filter-lost-cloud.md.
        public var lostChance: Double

        /// - Parameters:
        ///   - particles: Particles per device (default 1000; 10…100 000).
        ///   - step: Seconds between updates (default 1).
        ///   - speed: Typical speed per axis, m/s (default 1).
        ///   - turnTime: Seconds a heading persists (default 6).
        ///   - maximumSpeed: Top speed, m/s (default 2.5).
        ///   - floorChangeRate: Chance per second of changing floor (default 0.02).
        ///   - floorHold: Share of weight needed to switch the reported floor (default 0.8).
        ///   - evidenceWeight: Factor on the temperature per update (default 0.5).
        ///   - coverage: Share of fixes the radius should cover (default 0.68).
        ///   - radiusScale: Factor on the radius (default 1).
        ///   - snapshotRadiusScale: Factor on the radius of fixes from readings alone (default 1).
        ///   - resampleBelow: Effective-sample-size share that triggers resampling (default 0.5).
        ///   - seed: Seed of the generators (default 0).
        ///   - floorChangeRateElsewhere: Chance per second of changing floor away from a plan's connections (default
        ///     0.001, at most `floorChangeRate`).
        ///   - connectionChangeRate: Chance per second of changing floor inside a plan's connection (default 0.1).
        ///   - likelihoodSpacing: Metres between the points particles are weighed at (default 0.75).
        ///   - offsetDrift: How fast the receiver gain offset may drift, dB/√s (default 0.1).
        ///   - lagTime: Seconds the estimate trails a moving device by, for the accuracy radius (default 0.5).
        ///   - leadTime: Seconds the answer is moved on along the cloud's mean velocity (default 0.25).
        ///   - lostChance: The chance at each update that the cloud has lost its device (default 0.01).
        public init(
            particles: Int = 1000, step: Double = 1, speed: Double = 1, turnTime: Double = 6,
            maximumSpeed: Double = 2.5, floorChangeRate: Double = 0.02, floorHold: Double = 0.8,
            evidenceWeight: Double = 0.5, coverage: Double = 0.68, radiusScale: Double = 1,
            resampleBelow: Double = 0.5, seed: UInt64 = 0, floorChangeRateElsewhere: Double = 0.001,
            connectionChangeRate: Double = 0.1, likelihoodSpacing: Double = 0.75, offsetDrift: Double = 0.1,
            snapshotRadiusScale: Double = 1, lagTime: Double = 0.5, leadTime: Double = 0.25,
            lostChance: Double = 0.01
        ) {
            self.lostChance = lostChance.isFinite ? min(max(lostChance, 0), 1) : 0.01
            self.leadTime = leadTime.isFinite && leadTime >= 0 ? leadTime : 0.25
            self.lagTime = lagTime.isFinite && lagTime >= 0 ? lagTime : 0.5
            self.snapshotRadiusScale = snapshotRadiusScale.isFinite && snapshotRadiusScale > 0 ? snapshotRadiusScale : 1
            self.offsetDrift = offsetDrift.isFinite && offsetDrift >= 0 ? offsetDrift : 0.1
            self.likelihoodSpacing = likelihoodSpacing.isFinite && likelihoodSpacing > 0 ? likelihoodSpacing : 0.75
            self.particles = min(max(particles, 10), 100_000)
            self.step = step.isFinite && step > 0 ? step : 1
            self.speed = speed.isFinite && speed > 0 ? speed : 1
            self.turnTime = turnTime.isFinite && turnTime > 0 ? turnTime : 6
            self.maximumSpeed = maximumSpeed.isFinite && maximumSpeed > 0 ? maximumSpeed : 2.5
            self.floorChangeRate = floorChangeRate.isFinite ? min(max(floorChangeRate, 0), 1) : 0.02
            self.floorHold = floorHold.isFinite ? min(max(floorHold, 0.5), 1) : 0.8
            self.evidenceWeight = evidenceWeight.isFinite && evidenceWeight > 0 ? evidenceWeight : 0.5
            self.coverage = coverage.isFinite ? min(max(coverage, 0.01), 0.99) : 0.68
            self.radiusScale = radiusScale.isFinite && radiusScale > 0 ? radiusScale : 1
            self.resampleBelow = resampleBelow.isFinite ? min(max(resampleBelow, 0), 1) : 0.5
            self.seed = seed
            self.connectionChangeRate = connectionChangeRate.isFinite ? min(max(connectionChangeRate, 0), 1) : 0.1
            self.floorChangeRateElsewhere =
                floorChangeRateElsewhere.isFinite ? min(max(floorChangeRateElsewhere, 0), self.floorChangeRate) : 0.001
        }

        /// The filter as the default (`auto`) runs it over a survey's radio map: a receiver offset drifting 0.05 dB/√s
        /// and a standard evidence weight of 0.7, the rest (the motion among them) as the initialiser's defaults.
        /// Chosen with each real dataset held out in turn, with the map's normalising term weighed twice
        /// (docs/notes/leave-one-venue-out-parameters.md).
        public static func overSurvey(particles: Int = 1000, seed: UInt64 = 0) -> Configuration {
            Configuration(particles: particles, evidenceWeight: 0.7, seed: seed, offsetDrift: 0.05)
        }
    }

    /// One device's cloud. Positions in metres in the venue frame, velocities in m/s, floors as indices into the
    /// map's ``RadioMap/Grid/floors``, weights summing to 1.
    public struct Belief: Sendable {
        /// Each particle's east coordinate, metres.
        public internal(set) var x: [Double]
        /// Each particle's north coordinate, metres.
        public internal(set) var y: [Double]
        /// Each particle's east velocity, m/s.
        public internal(set) var vx: [Double]
        /// Each particle's north velocity, m/s.
        public internal(set) var vy: [Double]
        /// Each particle's floor, an index into the map's ``RadioMap/Grid/floors``.
        public internal(set) var floor: [Int]
        /// Each particle's weight (the weights sum to 1).
        public internal(set) var weight: [Double]
        /// Seconds: the moment the cloud describes.
        public internal(set) var time: Double
        /// The estimated receiver gain offset of the device, dB (its readings are this much above the map's).
        public internal(set) var offset: Double
        /// The variance of ``offset``'s estimate, dB².
        public internal(set) var offsetVariance: Double
        /// The floor reported (an index into the map's floors), changed with hysteresis.
        var reportedFloor: Int
        /// The cloud's generator: the next update's motion noise and resampling draw from it.
        public internal(set) var random: SplitMix64

        /// The number of particles.
        public var count: Int { x.count }

        /// The effective sample size, 1…``count``.
        public var effectiveSize: Double {
            var sum = 0.0
            for w in weight { sum += w * w }
            return sum > 0 ? 1 / sum : 0
        }
    }

    /// The RSSI filter the engine should read for this method (``MethodCatalog`` sets it): the mean of the last
    /// second, no trim. The filter itself smooths over time; a slow filter's lagging value (the engine's default Kalman
    /// filter) made it trail a walker: 2.08 m against 1.30 m median on a simulated office (seed 11, not a test split).
    static let readingFilter = RSSIFilter.Kind.trimmedMean(window: 1, trim: 0)

    public internal(set) var name: String
    /// The likelihood: its map and its weighting.
    public let posterior: PosteriorGrid
    /// The filter's tuning.
    public let configuration: Configuration
    /// What ``RadioMapCrossValidation`` chose the map and weighting of ``posterior`` on (`auto` with a survey); `nil`
    /// otherwise.
    public var mapSelection: RadioMapCrossValidation.Outcome?
    /// What ``TrackingValidation`` chose this filter's evidence weight on, when it did (`auto` with a survey that has
    /// walks); `nil` otherwise.
    var validation: TrackingValidation.Outcome?
    /// Why ``validation`` is `nil` although the map was learned from a survey (a survey without enough walks), in a
    /// sentence for reports (``TrackingValidation/unchosenNote(survey:standard:)``); `nil` otherwise.
    public var unvalidated: String?
    /// What ``EstimatorValidation`` chose on the survey's walks: the share of k-NN in `auto`'s answer; `nil` without
    /// enough walks (the filter answers alone).
    var estimators: EstimatorValidation.Outcome?
    /// The venue's walls and floor connections, when the motion model should respect them.
    public let floorPlan: FloorPlan?
    /// ``floorPlan`` by grid floor.
    private let planMotion: PlanMotion?
    /// The map's likelihood terms laid out for weighing clouds.
    /// The map's likelihood terms on the lattice particles are weighed at (the grid points whose column and row are
    /// multiples of its stride; see ``Configuration/likelihoodSpacing``), laid out for weighing clouds.
    let likelihood: ParticleLikelihood
    /// The reference cells a cloud's evidence is compared with (``Configuration/lostChance``).
    let recovery: CloudRecovery

    /// Seconds between updates (``Configuration/step``).
    public var step: Double { configuration.step }

    /// Bytes of one device's cloud: per particle its position, velocity and weight (five `Double`s) and its floor,
    /// plus the belief's own fields.
    public var bytesPerBelief: Int {
        configuration.particles * (5 * MemoryLayout<Double>.stride + MemoryLayout<Int>.stride)
            + MemoryLayout<Belief>.stride
    }

    /// A particle filter weighing particles by `posterior`'s map and weighting, reported as `name`; its particles keep
    /// to `floorPlan`'s walls and connections when one is given.
    public init(
        posterior: PosteriorGrid, configuration: Configuration = Configuration(), floorPlan: FloorPlan? = nil,
        name: String = "particles"
    ) {
        self.posterior = posterior
        self.configuration = configuration
        self.floorPlan = floorPlan
        self.planMotion = floorPlan.map { PlanMotion(plan: $0, levels: posterior.map.grid.floors) }
        self.name = name
        self.likelihood = ParticleLikelihood(
            map: posterior.map, stride: Self.stride(spacing: configuration.likelihoodSpacing, grid: posterior.map.grid),
            missingWeight: posterior.configuration.missingWeight,
            degreesOfFreedom: posterior.configuration.degreesOfFreedom)
        self.recovery = CloudRecovery(likelihood: likelihood, map: posterior.map)
    }

    /// The lattice of a map on `grid` for weighing at about `spacing` metres: every `stride`-th grid column and row,
    /// the stride whose lattice spacing is nearest `spacing` (between two, the finer; at least 1).
    static func stride(spacing: Double, grid: RadioMap.Grid) -> Int {
        let ratio = spacing / grid.spacing
        return ratio.isFinite && ratio > 1.5 ? Int(min((ratio - 1e-9).rounded(), 1e6)) : 1
    }

    /// A cloud drawn from the grid posterior of `readings`; `nil` when no reading names a mapped node.
    public func start(device: String, readings: [NodeReading], at time: Double) -> Belief? {
        let map = posterior.map
        guard !map.cells.isEmpty, let terms = posterior.likelihoodTerms(readings) else { return nil }
        let log = PosteriorGrid.logPosterior(
            fit: terms.fit, unheard: terms.unheard, temperature: posterior.configuration.temperature,
            missingWeight: posterior.configuration.missingWeight)
        guard let peak = log.max(), peak.isFinite else { return nil }
        var cellWeights = log.map { exp($0 - peak) }
        let total = cellWeights.reduce(0, +)
        for c in cellWeights.indices { cellWeights[c] /= total }
        var random = SplitMix64(seed: configuration.seed, stream: Self.stream(of: device))
        let n = configuration.particles
        let picks = [Int](unsafeUninitializedCapacity: n) { buffer, initialized in
            cellWeights.withUnsafeBufferPointer { Self.systematic(weights: $0, into: buffer, random: &random) }
            initialized = n
        }
        let perFloor = map.grid.rows * map.grid.columns
        let half = map.spacing / 2
        var belief = Belief(
            x: [], y: [], vx: [], vy: [], floor: [], weight: [Double](repeating: 1 / Double(n), count: n), time: time,
            offset: 0, offsetVariance: posterior.configuration.offsetSigma * posterior.configuration.offsetSigma,
            reportedFloor: 0, random: random)
        belief.x.reserveCapacity(n)
        belief.y.reserveCapacity(n)
        belief.vx.reserveCapacity(n)
        belief.vy.reserveCapacity(n)
        belief.floor.reserveCapacity(n)
        for cell in picks {
            let point = map.cells[cell]
            belief.x.append(point.x + belief.random.uniform(-half...half))
            belief.y.append(point.y + belief.random.uniform(-half...half))
            belief.vx.append(belief.random.gaussian(deviation: configuration.speed))
            belief.vy.append(belief.random.gaussian(deviation: configuration.speed))
            belief.floor.append(cell / perFloor)
        }
        belief.reportedFloor = Self.heaviestFloor(belief, floors: map.grid.floors.count).index
        return belief
    }

    public func update(_ belief: inout Belief, readings: [NodeReading], at time: Double) {
        let count = belief.count
        // The particles' arrays are all `count` long (read through buffers below).
        guard count > 0, belief.y.count == count, belief.vx.count == count, belief.vy.count == count,
            belief.floor.count == count, belief.weight.count == count
        else { return }
        let elapsed = time - belief.time
        // The readings were heard `age` seconds ago on average: each particle is weighed where it was then (at most
        // two steps back: older readings say little about where a walker was, and a reading stamped without a real
        // time must not throw the cloud across the venue).
        let age = min(Self.meanAge(readings, at: max(time, belief.time)), 2 * configuration.step)
        let weighing =
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * count) { place -> Weighing? in
                let places = CloudPlaces(grid: posterior.map.grid, lattice: likelihood, age: age, place: place)
                if elapsed > 0 {
                    move(&belief, seconds: elapsed, places: places)
                    belief.time = time
                    // The offset drifts meanwhile.
                    belief.offsetVariance = boundedOffsetVariance(
                        belief.offsetVariance + configuration.offsetDrift * configuration.offsetDrift * elapsed)
                } else {
                    locate(belief, places: places)
                }
                return weigh(&belief, readings: readings, places: places)
            }
        if configuration.lostChance > 0, let weighing, recover(&belief, from: weighing) { return }
        let effectiveSize = weighing?.effectiveSize ?? belief.effectiveSize
        if effectiveSize < configuration.resampleBelow * Double(count) { resample(&belief) }
    }

    /// What weighing a cloud found: its new weights' effective sample size (`nil` when they were reset to equal),
    /// its evidence ln Σ wᵢ Lᵢ over the old weights (nats, tempered), and what the readings were weighed with.
    private struct Weighing {
        var effectiveSize: Double?
        var evidence: Double
        var columns: [Int]
        var values: [Double]
        var priorPrecision: Double
        var priorMean: Double
        var scale: Double
    }

    /// Draws the share ``CloudRecovery`` gives of `belief`'s particles afresh from the readings' posterior over the
    /// reference cells, the rest resampled from the cloud, all weighted equally. Returns whether it did (the cloud is
    /// then resampled already).
    private func recover(_ belief: inout Belief, from weighing: Weighing) -> Bool {
        let cells = recovery.cells
        let n = cells.count
        let count = belief.count
        guard n > 0, count > 0 else { return false }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * n) { buffer -> Bool in
            let logs = UnsafeMutableBufferPointer(rebasing: buffer[0..<n])
            cells.withUnsafeBufferPointer { cells in
                likelihood.evaluate(
                    cells: cells, columns: weighing.columns, values: weighing.values,
                    priorPrecision: weighing.priorPrecision, priorMean: weighing.priorMean, scale: weighing.scale,
                    logs: logs, offsets: UnsafeMutableBufferPointer(rebasing: buffer[n..<(2 * n)]),
                    variances: UnsafeMutableBufferPointer(rebasing: buffer[(2 * n)..<(3 * n)]))
            }
            let share = CloudRecovery.share(
                cloudEvidence: weighing.evidence, logs: logs, lostChance: configuration.lostChance)
            let replaced = min(Int((share * Double(count)).rounded()), count)
            guard replaced > 0 else { return false }
            resample(&belief)
            let grid = posterior.map.grid
            let half = recovery.halfSpacing
            withUnsafeTemporaryAllocation(of: Int.self, capacity: replaced) { picks in
                Self.systematic(weights: UnsafeBufferPointer(logs), into: picks, random: &belief.random)
                for k in 0..<replaced {
                    // Spread over the cloud (a resampled cloud is in the order of the particles it was drawn from).
                    let i = k * count / replaced
                    let cell = picks[k]
                    belief.x[i] = min(
                        max(recovery.x[cell] + belief.random.uniform(-half...half), grid.minimum.x), grid.maximum.x)
                    belief.y[i] = min(
                        max(recovery.y[cell] + belief.random.uniform(-half...half), grid.minimum.y), grid.maximum.y)
                    belief.vx[i] = belief.random.gaussian(deviation: configuration.speed)
                    belief.vy[i] = belief.random.gaussian(deviation: configuration.speed)
                    belief.floor[i] = recovery.floor[cell]
                }
            }
            return true
        }
    }

    /// `variance` (dB²) as the offset's: never broader than the posterior's prior (which a new cloud starts from), nor
    /// so narrow, or undefined, that the offset could no longer move; 0 when the posterior fixes the offset (no prior
    /// spread).
    private func boundedOffsetVariance(_ variance: Double) -> Double {
        let widest = posterior.configuration.offsetSigma * posterior.configuration.offsetSigma
        guard widest > 0 else { return 0 }
        guard variance.isFinite else { return widest }
        return min(max(variance, 1e-6 * widest), widest)
    }

    /// Records where each particle of `belief` is looked up, without moving it.
    private func locate(_ belief: Belief, places: CloudPlaces) {
        for i in 0..<belief.count {
            places.record(i, x: belief.x[i], y: belief.y[i], vx: belief.vx[i], vy: belief.vy[i])
        }
    }

    /// Moves every particle on by `seconds` of walking, and records in `places` where it is looked up. The
    /// particles' arrays are all as long as ``Belief/count``.
    private func move(_ belief: inout Belief, seconds: Double, places: CloudPlaces) {
        let grid = posterior.map.grid
        let keep = exp(-seconds / configuration.turnTime)
        let kick = configuration.speed * (1 - keep * keep).squareRoot()
        let top = configuration.maximumSpeed
        let floorCount = grid.floors.count
        // With connections listed, a change is drawn at the connections' rate and kept elsewhere only at the share
        // `strayShare` (PlanMotion), which makes the rate away from them `floorChangeRateElsewhere`.
        let rate =
            planMotion?.gatesFloorChanges == true ? configuration.connectionChangeRate : configuration.floorChangeRate
        let changeChance = floorCount > 1 ? 1 - exp(-rate * seconds) : 0
        let strayShare =
            changeChance > 0
            ? min(1, (1 - exp(-configuration.floorChangeRateElsewhere * seconds)) / changeChance) : 0
        let minimum = grid.minimum
        let maximum = grid.maximum
        let planMotion = self.planMotion
        var random = belief.random
        let count = belief.count
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * count) { noise in
            Self.drawNormals(into: noise, random: &random)
            belief.x.withUnsafeMutableBufferPointer { xs in
                belief.y.withUnsafeMutableBufferPointer { ys in
                    belief.vx.withUnsafeMutableBufferPointer { vxs in
                        belief.vy.withUnsafeMutableBufferPointer { vys in
                            belief.floor.withUnsafeMutableBufferPointer { floors in
                                for i in 0..<count {
                                    var vx = keep * vxs[i] + kick * noise[2 &* i]
                                    var vy = keep * vys[i] + kick * noise[2 &* i &+ 1]
                                    let square = vx * vx + vy * vy
                                    let factor = square > top * top ? top / square.squareRoot() : 1
                                    vx *= factor
                                    vy *= factor
                                    var x = xs[i] + vx * seconds
                                    var y = ys[i] + vy * seconds
                                    // The grid's box holds the venue: a particle leaving it turns back.
                                    if x < minimum.x || x > maximum.x {
                                        x = min(max(x, minimum.x), maximum.x)
                                        vx = -vx
                                    }
                                    if y < minimum.y || y > maximum.y {
                                        y = min(max(y, minimum.y), maximum.y)
                                        vy = -vy
                                    }
                                    planMotion?.keepInside(
                                        fromX: xs[i], fromY: ys[i], x: &x, y: &y, vx: &vx, vy: &vy, floor: floors[i])
                                    xs[i] = x
                                    ys[i] = y
                                    vxs[i] = vx
                                    vys[i] = vy
                                    places.record(i, x: x, y: y, vx: vx, vy: vy)
                                }
                                guard changeChance > 0 else { return }
                                for i in 0..<count where random.unit() < changeChance {
                                    let up = random.unit() < 0.5
                                    let floor = floors[i] + (up ? 1 : -1)
                                    let target = floor < 0 || floor >= floorCount ? floors[i] - (up ? 1 : -1) : floor
                                    if planMotion?.allowsFloorChange(
                                        x: xs[i], y: ys[i], from: floors[i], to: target, strayShare: strayShare,
                                        random: &random) ?? true
                                    {
                                        floors[i] = target
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        belief.random = random
    }

    /// Fills `noise` with standard normal deviates from ``normals``: five 12-bit indices into the table per 64 bits of
    /// `random`.
    private static func drawNormals(into noise: UnsafeMutableBufferPointer<Double>, random: inout SplitMix64) {
        normals.withUnsafeBufferPointer { normals in
            let count = noise.count
            var i = 0
            while i + 5 <= count {
                let bits = random.next()
                noise[i] = normals[Int(bits & 0xFFF)]
                noise[i + 1] = normals[Int((bits >> 12) & 0xFFF)]
                noise[i + 2] = normals[Int((bits >> 24) & 0xFFF)]
                noise[i + 3] = normals[Int((bits >> 36) & 0xFFF)]
                noise[i + 4] = normals[Int((bits >> 48) & 0xFFF)]
                i += 5
            }
            guard i < count else { return }
            var bits = random.next()
            while i < count {
                noise[i] = normals[Int(bits & 0xFFF)]
                bits >>= 12
                i += 1
            }
        }
    }

    /// Seconds between `time` and when `readings` were last heard, on average (0 for none, or all heard later).
    ///
    /// Readings are heard before the update that uses them (the engine reads each node's value over its last second,
    /// and a node may be silent a few seconds before it goes stale): a walker has moved on since. Weighing each
    /// particle where its velocity says it was then, not where it is now, takes out that lag: on the simulated
    /// offices of seeds 11 and 7 (not scored venues) the median error fell from 1.29 to 1.25 m and from 1.30 to
    /// 1.27 m.
    static func meanAge(_ readings: [NodeReading], at time: Double) -> Double {
        var sum = 0.0
        var count = 0
        for reading in readings where reading.lastHeard.isFinite {
            sum += max(0, time - reading.lastHeard)
            count += 1
        }
        let age = count > 0 ? sum / Double(count) : 0
        return age.isFinite ? age : 0
    }

    /// 4096 standard normal deviates (seeded, fixed): the motion noise draws from them, a table look-up instead of
    /// a logarithm, a square root and a cosine per draw.
    private static let normals: [Double] = {
        var random = SplitMix64(seed: 0x9A27_1C1E)
        return (0..<4096).map { _ in random.standardNormal() }
    }()

    /// Weighs every particle by the readings' likelihood at its place, updates the offset and the reported floor.
    /// Returns what it found (the effective sample size of the new weights `nil` when they were reset to equal), or
    /// `nil` when the weights were left alone.
    ///
    /// Particles share lattice points (a cloud of 1000 spans a few hundred), so each point's likelihood is computed
    /// once per update: a table over the box of lattice points the cloud covers gives each point met its slot in a
    /// list of log-likelihoods and offsets, and the weight factor exp(log-likelihood − peak) is taken once per slot.
    private func weigh(_ belief: inout Belief, readings: [NodeReading], places: CloudPlaces) -> Weighing? {
        let (columns, values) = posterior.map.heard(readings)
        let count = belief.count
        guard !columns.isEmpty, let box = places.box(count: count) else { return nil }
        let map = posterior.map
        let grid = map.grid
        let settings = posterior.configuration
        let scale = settings.temperature * configuration.evidenceWeight
        let priorPrecision = belief.offsetVariance > 0 ? 1 / belief.offsetVariance : 0
        let priorMean = belief.offset
        let latticeColumns = likelihood.columns
        let perFloor = likelihood.rows * latticeColumns
        let floorCount = max(1, grid.floors.count)
        let floors = belief.floor
        // The floors the cloud is on (a map with one floor has every particle on it).
        var lowFloor = 0
        var highFloor = 0
        if floorCount > 1 {
            lowFloor = Int.max
            highFloor = Int.min
            for floor in floors {
                lowFloor = min(lowFloor, floor)
                highFloor = max(highFloor, floor)
            }
            lowFloor = min(max(lowFloor, 0), floorCount - 1)
            highFloor = min(max(highFloor, 0), floorCount - 1)
        }
        let lowColumn = box.columns.lowerBound
        let lowRow = box.rows.lowerBound
        let highRow = box.rows.upperBound
        // Per particle: its lattice column and row (then its slot in the list of points met).
        let place = places.place
        let width = box.columns.count
        let height = box.rows.count
        let boxSize = width * height * (highFloor - lowFloor + 1)
        // Per lattice point of the box: its slot in the list of points met (−1: no particle there).
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: boxSize) { slots -> Weighing? in
            slots.initialize(repeating: -1)
            for i in 0..<count {
                let floor = min(max(floors[i], 0), floorCount - 1)
                let row = Int(place[2 &* i &+ 1])
                let column = Int(place[2 &* i])
                // Wrapping arithmetic, without overflow checks: the particle's place lies in the box.
                let box = ((floor &- lowFloor) &* height &+ row &- lowRow) &* width &+ column &- lowColumn
                slots[box] = 0
                // place[i] is free: place[2i] and place[2i + 1] are this particle's or a later one's.
                place[i] = Int32(truncatingIfNeeded: box)
            }
            // Per slot: the log-likelihood (then the weight factor), the offset estimated there (dB) and that
            // estimate's variance (dB²).
            return withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * count) { met -> Weighing? in
                let factors = UnsafeMutableBufferPointer(rebasing: met[0..<count])
                let offsets = UnsafeMutableBufferPointer(rebasing: met[count..<(2 * count)])
                let variances = UnsafeMutableBufferPointer(rebasing: met[(2 * count)..<(3 * count)])
                let metCount = withUnsafeTemporaryAllocation(of: Int32.self, capacity: count + 1) {
                    cells -> Int in
                    // The points met, in the order of the map's planes (row by row). Without a branch on whether
                    // a point is met (which is as good as random): every point is written to the next free
                    // entry of `cells` (one spare at the end), which only a met point keeps.
                    var metCount = 0
                    var box = 0
                    for floor in lowFloor...highFloor {
                        for row in lowRow...highRow {
                            let start = Int32(
                                truncatingIfNeeded: floor * perFloor + row * latticeColumns + lowColumn)
                            for column in 0..<Int32(truncatingIfNeeded: width) {
                                let met = slots[box] == 0
                                cells[metCount] = start &+ column
                                slots[box] = met ? Int32(truncatingIfNeeded: metCount) : -1
                                metCount &+= met ? 1 : 0
                                box &+= 1
                            }
                        }
                    }
                    likelihood.evaluate(
                        cells: UnsafeBufferPointer(rebasing: cells[0..<metCount]), columns: columns,
                        values: values, priorPrecision: priorPrecision, priorMean: priorMean, scale: scale,
                        logs: factors, offsets: offsets, variances: variances)
                    return metCount
                }
                var evidence = -Double.infinity
                let (offset, offsetVariance, squares) =
                    belief.weight.withUnsafeMutableBufferPointer { weight -> (Double, Double, Double)? in
                        // The highest log-likelihood of a point met (all factors at most 1).
                        var peak = -Double.infinity
                        for slot in 0..<metCount { peak = max(peak, factors[slot]) }
                        guard peak.isFinite else { return nil }
                        for slot in 0..<metCount { factors[slot] = Foundation.exp(factors[slot] - peak) }
                        // Sums in four lanes (four independent chains of additions; the last group's lanes past
                        // the end add nothing).
                        var total = SIMD4<Double>.zero
                        var offsetSum = SIMD4<Double>.zero
                        // The offset's second moment: each slot's variance plus its estimate squared.
                        var momentSum = SIMD4<Double>.zero
                        var first = 0
                        while first < count {
                            var w = SIMD4<Double>.zero
                            var o = SIMD4<Double>.zero
                            var v = SIMD4<Double>.zero
                            for lane in 0..<min(4, count - first) {
                                let slot = Int(slots[Int(place[first + lane])])
                                w[lane] = weight[first + lane] * factors[slot]
                                o[lane] = offsets[slot]
                                v[lane] = variances[slot]
                                weight[first + lane] = w[lane]
                            }
                            total += w
                            offsetSum += w * o
                            momentSum += w * (v + o * o)
                            first += 4
                        }
                        let weightSum = total.sum()
                        // The old weights sum to 1, so this is ln Σ wᵢ Lᵢ.
                        evidence = peak + Foundation.log(weightSum)
                        guard weightSum > 0, weightSum.isFinite else {
                            for i in 0..<count { weight[i] = 1 / Double(count) }
                            return nil
                        }
                        let inverseTotal = 1 / weightSum
                        var squareSum = SIMD4<Double>.zero
                        first = 0
                        while first < count {
                            var w = SIMD4<Double>.zero
                            for lane in 0..<min(4, count - first) {
                                w[lane] = weight[first + lane] * inverseTotal
                                weight[first + lane] = w[lane]
                            }
                            squareSum += w * w
                            first += 4
                        }
                        let squares = squareSum.sum()
                        let offset = offsetSum.sum() * inverseTotal
                        // The variance of the cloud's offset: the slots' variances and their estimates' spread.
                        let variance = max(momentSum.sum() * inverseTotal - offset * offset, 0)
                        return (offset, variance, squares)
                    } ?? (belief.offset, belief.offsetVariance, 0)
                var weighing = Weighing(
                    effectiveSize: nil, evidence: evidence, columns: columns, values: values,
                    priorPrecision: priorPrecision, priorMean: priorMean, scale: scale)
                guard squares > 0 else { return weighing }
                belief.offset = offset
                belief.offsetVariance = boundedOffsetVariance(offsetVariance)
                if floorCount > 1 {
                    let heaviest = Self.heaviestFloor(belief, floors: floorCount)
                    if heaviest.index != belief.reportedFloor, heaviest.share >= configuration.floorHold {
                        belief.reportedFloor = heaviest.index
                    }
                }
                weighing.effectiveSize = 1 / squares
                return weighing
            }
        }
    }

    /// Draws a new, equally weighted cloud from the old one (systematic resampling).
    private func resample(_ belief: inout Belief) {
        let count = belief.count
        withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { picks in
            belief.weight.withUnsafeBufferPointer { weights in
                Self.systematic(weights: weights, into: picks, random: &belief.random)
            }
            let picks = UnsafeBufferPointer(picks)
            Self.gather(&belief.x, picks: picks)
            Self.gather(&belief.y, picks: picks)
            Self.gather(&belief.vx, picks: picks)
            Self.gather(&belief.vy, picks: picks)
            Self.gather(&belief.floor, picks: picks)
        }
        let equal = 1 / Double(count)
        belief.weight.withUnsafeMutableBufferPointer { weight in
            for i in weight.indices { weight[i] = equal }
        }
    }

    /// Replaces each of `values` by the one `picks` names (`picks` as long as `values`): a new array read from the
    /// old one, without copying the old one first.
    private static func gather<Element>(_ values: inout [Element], picks: UnsafeBufferPointer<Int>) {
        let count = min(picks.count, values.count)
        values = values.withUnsafeBufferPointer { old in
            [Element](unsafeUninitializedCapacity: count) { new, initialized in
                for i in 0..<count { new.initializeElement(at: i, to: old[picks[i]]) }
                initialized = count
            }
        }
    }

    public func estimate(from belief: Belief) -> Result<Estimate, NoFix> {
        let grid = posterior.map.grid
        var total = 0.0
        var x = 0.0
        var y = 0.0
        var vx = 0.0
        var vy = 0.0
        for i in 0..<belief.count where belief.floor[i] == belief.reportedFloor {
            let w = belief.weight[i]
            total += w
            x += w * belief.x[i]
            y += w * belief.y[i]
            vx += w * belief.vx[i]
            vy += w * belief.vy[i]
        }
        guard total > 0 else { return .failure(NoFix(.noSolution, "no particle is left on the reported floor")) }
        x /= total
        y /= total
        vx /= total
        vy /= total
        var spread = 0.0
        for i in 0..<belief.count where belief.floor[i] == belief.reportedFloor {
            let dx = belief.x[i] - x
            let dy = belief.y[i] - y
            spread += belief.weight[i] * (dx * dx + dy * dy)
        }
        let floor = grid.floors.indices.contains(belief.reportedFloor) ? grid.floors[belief.reportedFloor] : nil
        return .success(
            stated(
                position: Point3D(
                    x: min(max(x + configuration.leadTime * vx, grid.minimum.x), grid.maximum.x),
                    y: min(max(y + configuration.leadTime * vy, grid.minimum.y), grid.maximum.y), z: grid.height ?? 0),
                floor: floor,
                meanSquareRadius: spread / total + configuration.lagTime * configuration.lagTime * (vx * vx + vy * vy),
                scale: configuration.radiusScale))
    }

    /// The estimate at `position` on `floor` with the filter's accuracy radius for a belief whose mean square distance
    /// from `position` is `meanSquareRadius` (m²): the radius holding ``Configuration/coverage`` of a 2-D Gaussian of
    /// that spread, times `scale`, and at least half the grid spacing.
    private func stated(position: Point3D, floor: Int?, meanSquareRadius: Double, scale: Double) -> Estimate {
        // A 2-D Gaussian with mean square radius s holds the share p within √(−s·ln(1 − p)).
        let radius = (-meanSquareRadius * Foundation.log(1 - configuration.coverage)).squareRoot()
        let accuracy = max(posterior.map.spacing / 2, scale * radius)
        return Estimate(position: position, floor: floor, accuracy: accuracy, confidence: 1 / (1 + accuracy / 2))
    }

    /// The estimate from `readings` alone: the mean of their grid posterior, which is what a cloud started from them
    /// (``start(device:readings:at:)``) estimates, without the sampling noise of its particles. The accuracy radius is
    /// the radius holding ``Configuration/coverage`` of a Gaussian with the posterior's spread, times
    /// ``Configuration/snapshotRadiusScale``.
    public func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
        posterior.estimate(from: readings).map { snapshot in
            // The posterior states its root-mean-square radius.
            stated(
                position: snapshot.position, floor: snapshot.floor,
                meanSquareRadius: snapshot.accuracy * snapshot.accuracy, scale: configuration.snapshotRadiusScale)
        }
    }

    /// The floor index holding most weight, and its share.
    private static func heaviestFloor(_ belief: Belief, floors: Int) -> (index: Int, share: Double) {
        var mass = [Double](repeating: 0, count: max(1, floors))
        for i in 0..<belief.count where mass.indices.contains(belief.floor[i]) {
            mass[belief.floor[i]] += belief.weight[i]
        }
        var best = 0
        for index in mass.indices where mass[index] > mass[best] { best = index }
        let total = mass.reduce(0, +)
        return (best, total > 0 ? mass[best] / total : 0)
    }

    /// `picks.count` indices drawn from `weights` (summing to 1) by systematic resampling, into `picks`.
    ///
    /// The targets are (u + i) / n for i = 0 ..< n (n picks, u uniform in [0, 1)); each goes to the first weight
    /// whose cumulative sum reaches it (the last weight takes any left). Without a branch per target (merging the two
    /// sorted lists branches as good as randomly): weight j + 1's first pick is the number of targets weights 0…j
    /// take, so that pick is written j + 1, and every other pick is the largest written before it.
    static func systematic(
        weights: UnsafeBufferPointer<Double>, into picks: UnsafeMutableBufferPointer<Int>, random: inout SplitMix64
    ) {
        let count = picks.count
        guard count > 0 else { return }
        let shift = 1 - random.unit()
        let scale = Double(count)
        picks.initialize(repeating: 0)
        var cumulative = 0.0
        for j in 0..<max(weights.count - 1, 0) {
            cumulative += weights[j]
            // The targets weights 0…j take: (u + i) / n ≤ cumulative, i.e. i < cumulative × n − u + 1.
            let taken = cumulative * scale + shift
            guard taken < scale else { break }
            picks[Int(taken)] = j + 1
        }
        var largest = 0
        for i in 0..<count {
            largest = max(largest, picks[i])
            picks[i] = largest
        }
    }

    /// A generator stream number for `device`: FNV-1a of its UTF-8 bytes (the same on every run and platform).
    static func stream(of device: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in device.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
