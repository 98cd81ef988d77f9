import CParticleFilter
import IndoorModel
import IndoorPositioning

/// The reference `indoor-bench positioning` states the particle filter's update speed against: the same update written
/// in plain C (`indoor_pf_update`, Sources/CParticleFilter), fed with the same lattice tables, the same table of normal
/// deviates and each cloud's own generator state, so that it moves, weighs and resamples the same particles as
/// ``ParticleFilter/update(_:readings:at:)`` does; measured in the same run, the ratio holds on any machine.
///
/// Covers maps of one floor without a floor plan, and the update without the lost-cloud check
/// (``ParticleFilter/Configuration/lostChance`` 0: the benchmark measures the check apart); ``init(filter:)`` answers
/// `nil` otherwise.
final class ParticleFilterBaseline {
    /// One cloud's heard readings as the C update takes them: map columns, RSSI (dBm), when heard (s).
    struct Heard {
        var columns: [Int32]
        var values: [Double]
        var lastHeard: [Double]
    }

    /// A cloud held for C: five planes of `count` values (x, y, vx, vy, weight) and its scalars.
    struct Cloud {
        var planes: [Double]
        var count: Int
        var time: Double
        var offset: Double
        var offsetVariance: Double
        var randomState: UInt64

        /// The particles' east coordinates (m), north coordinates (m), velocities (m/s) and weights.
        var x: ArraySlice<Double> { planes[0..<count] }
        var y: ArraySlice<Double> { planes[count..<(2 * count)] }
        var vx: ArraySlice<Double> { planes[(2 * count)..<(3 * count)] }
        var vy: ArraySlice<Double> { planes[(3 * count)..<(4 * count)] }
        var weight: ArraySlice<Double> { planes[(4 * count)..<(5 * count)] }
    }

    private let map: RadioMap
    private let mean: [Double]
    private let precision: [Float]
    private let constant: [Float]
    private let missing: [Double]
    private let normals: [Double]
    private let settings: indoor_pf_model
    private let particles: Int
    private(set) var clouds: [Cloud] = []

    /// The C form of `filter`'s update, or `nil` when its map has more than one floor or it keeps to a floor plan.
    init?(filter: ParticleFilter) {
        let map = filter.posterior.map
        let grid = map.grid
        guard grid.floors.count == 1, filter.floorPlan == nil, !map.cells.isEmpty, filter.configuration.lostChance == 0
        else { return nil }
        let configuration = filter.configuration
        let weighting = filter.posterior.configuration
        // The lattice ParticleFilter weighs on: every `stride`-th grid column and row (ParticleFilter.stride).
        let ratio = configuration.likelihoodSpacing / grid.spacing
        let stride = ratio.isFinite && ratio > 1.5 ? Int(min((ratio - 1e-9).rounded(), 1e6)) : 1
        let columns = (grid.columns - 1) / stride + 1
        let rows = (grid.rows - 1) / stride + 1
        var cells: [Int] = []
        for row in 0..<rows {
            for column in 0..<columns { cells.append((row * grid.columns + column) * stride) }
        }
        let nodes = map.nodeCount
        var mean: [Double] = []
        var precision: [Float] = []
        var constant: [Float] = []
        for node in 0..<nodes {
            for cell in cells {
                let index = cell * nodes + node
                mean.append(map.mean[index])
                precision.append(Float(map.inverseVariance[index]))
                constant.append(Float(map.halfLogVariance[index] + weighting.missingWeight * map.missLog[index]))
            }
        }
        self.map = map
        self.mean = mean
        self.precision = precision
        self.constant = constant
        missing = cells.map { weighting.missingWeight * map.missSum[$0] }
        // ParticleFilter's table of normal deviates.
        var random = SplitMix64(seed: 0x9A27_1C1E)
        normals = (0..<4096).map { _ in random.standardNormal() }
        particles = configuration.particles
        settings = indoor_pf_model(
            mean: nil, precision: nil, constant: nil, missing: nil, cell_count: Int32(clamping: cells.count),
            lattice_columns: Int32(clamping: columns), lattice_rows: Int32(clamping: rows), minimum_x: grid.minimum.x,
            minimum_y: grid.minimum.y, maximum_x: grid.maximum.x, maximum_y: grid.maximum.y,
            lattice_spacing: grid.spacing * Double(stride), inverse_nu: 1 / weighting.degreesOfFreedom,
            tail: 0.5 * (weighting.degreesOfFreedom + 1), scale: weighting.temperature * configuration.evidenceWeight,
            widest_offset_variance: weighting.offsetSigma * weighting.offsetSigma,
            offset_drift: configuration.offsetDrift, speed: configuration.speed, turn_time: configuration.turnTime,
            maximum_speed: configuration.maximumSpeed, step: configuration.step,
            resample_below: configuration.resampleBelow, normals: nil)
    }

    /// Holds a copy of `belief` for C; answers its index.
    @discardableResult
    func add(_ belief: ParticleFilter.Belief) -> Int {
        clouds.append(
            Cloud(
                planes: belief.x + belief.y + belief.vx + belief.vy + belief.weight, count: belief.count,
                time: belief.time, offset: belief.offset, offsetVariance: belief.offsetVariance,
                randomState: belief.random.state))
        return clouds.count - 1
    }

    /// `readings` as the C update takes them: the nodes the map knows, each once, with a finite RSSI.
    func heard(_ readings: [NodeReading]) -> Heard {
        var heard = Heard(columns: [], values: [], lastHeard: [])
        for reading in readings {
            guard let column = map.column(of: reading.node.id), reading.rssi.isFinite,
                !heard.columns.contains(Int32(column))
            else { continue }
            heard.columns.append(Int32(column))
            heard.values.append(reading.rssi)
            heard.lastHeard.append(reading.lastHeard)
        }
        return heard
    }

    /// Updates every cloud in turn, cloud `i` with `heard[i]`, at `time` (s).
    func updateAll(_ heard: [Heard], at time: Double) {
        withModel { model, workspace in
            for index in clouds.indices where index < heard.count {
                Self.update(&clouds[index], heard: heard[index], at: time, model: model, workspace: workspace)
            }
        }
    }

    /// Runs `body` with the C model over this object's tables and a workspace for its clouds.
    private func withModel(_ body: (UnsafePointer<indoor_pf_model>, OpaquePointer) -> Void) {
        mean.withUnsafeBufferPointer { mean in
            precision.withUnsafeBufferPointer { precision in
                constant.withUnsafeBufferPointer { constant in
                    missing.withUnsafeBufferPointer { missing in
                        normals.withUnsafeBufferPointer { normals in
                            var model = settings
                            model.mean = mean.baseAddress
                            model.precision = precision.baseAddress
                            model.constant = constant.baseAddress
                            model.missing = missing.baseAddress
                            model.normals = normals.baseAddress
                            withUnsafePointer(to: &model) { model in
                                guard let workspace = indoor_pf_workspace_create(model, Int32(clamping: particles))
                                else { return }
                                body(model, workspace)
                                indoor_pf_workspace_destroy(workspace)
                            }
                        }
                    }
                }
            }
        }
    }

    private static func update(
        _ cloud: inout Cloud, heard: Heard, at time: Double, model: UnsafePointer<indoor_pf_model>,
        workspace: OpaquePointer
    ) {
        let count = cloud.count
        var scalars = (cloud.time, cloud.offset, cloud.offsetVariance, cloud.randomState)
        cloud.planes.withUnsafeMutableBufferPointer { planes in
            guard let base = planes.baseAddress else { return }
            var state = indoor_pf_cloud(
                x: base, y: base + count, vx: base + 2 * count, vy: base + 3 * count, weight: base + 4 * count,
                count: Int32(clamping: count), time: scalars.0, offset: scalars.1, offset_variance: scalars.2,
                random_state: scalars.3)
            heard.columns.withUnsafeBufferPointer { columns in
                heard.values.withUnsafeBufferPointer { values in
                    heard.lastHeard.withUnsafeBufferPointer { lastHeard in
                        _ = indoor_pf_update(
                            model, workspace, &state, columns.baseAddress, values.baseAddress, lastHeard.baseAddress,
                            Int32(clamping: columns.count), time)
                    }
                }
            }
            scalars = (state.time, state.offset, state.offset_variance, state.random_state)
        }
        (cloud.time, cloud.offset, cloud.offsetVariance, cloud.randomState) = scalars
    }
}
