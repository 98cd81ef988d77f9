import Foundation
import IndoorModel
import IndoorPositioning
import IndoorRanging

/// The standard synthetic positioning workload of `indoor-bench positioning`.
///
/// 24 nodes on a 6 × 4 grid spanning 40 m × 30 m (corners included) at z = 2.5 m; devices uniformly placed at
/// z = 1.2 m; each hears its 8 nearest nodes at −59 dBm at 1 m, exponent 2, with σ dB of shadowing (default 4),
/// drawn from a seeded generator.
struct PositioningWorkload {
    static let calibration = NodeCalibration(rssiAtOneMeter: -59, pathLossExponent: 2)
    static let deviceHeight = 1.2
    let sigma: Double
    let nodes: [Node]
    let devices: [Point3D]
    /// Per device: the nodes heard (indices) and one RSSI draw for each, strongest first.
    let heard: [[(node: Int, rssi: Double)]]

    init(devices count: Int, sigma dB: Double = 4, seed: UInt64 = 1) {
        sigma = dB
        var nodes: [Node] = []
        for j in 0..<4 {
            for i in 0..<6 {
                nodes.append(
                    Node(
                        id: "n\(j * 6 + i)", position: Point3D(x: Double(i) * 8, y: Double(j) * 10, z: 2.5),
                        calibration: Self.calibration))
            }
        }
        self.nodes = nodes
        var random = SplitMix64(seed: seed)
        var devices: [Point3D] = []
        var heard: [[(node: Int, rssi: Double)]] = []
        for _ in 0..<count {
            let device = Point3D(x: random.unit() * 40, y: random.unit() * 30, z: Self.deviceHeight)
            let nearest = nodes.indices.sorted {
                nodes[$0].position.distance(to: device) < nodes[$1].position.distance(to: device)
            }.prefix(8)
            var readings = nearest.map { index -> (node: Int, rssi: Double) in
                let rssi = LogDistance.rssi(
                    meters: nodes[index].position.distance(to: device), calibration: Self.calibration)
                return (index, rssi + dB * random.standardNormal())
            }
            readings.sort { $0.rssi > $1.rssi }
            devices.append(device)
            heard.append(readings)
        }
        self.devices = devices
        self.heard = heard
    }

    /// The engine's calibration for this workload: the true path loss and σ.
    var engineCalibration: Calibration {
        Calibration(pooled: Self.calibration, shadowingSigma: sigma, deviceHeight: Self.deviceHeight)
    }

    /// The node readings of each device, as the engine would hand them to a method.
    func readings() -> [[NodeReading]] {
        let logVariance = LogDistance.logRangeVariance(sigma: sigma, exponent: Self.calibration.pathLossExponent)
        return heard.map { list in
            list.map { entry in
                let d = LogDistance.distance(rssi: entry.rssi, calibration: Self.calibration)
                return NodeReading(
                    node: nodes[entry.node], rssi: entry.rssi, distance: d, distanceVariance: d * d * logVariance,
                    lastHeard: 0)
            }
        }
    }

    /// Noise-free fingerprints on a square grid (metres apart) over the area: the 8 nearest nodes' expected RSSI.
    /// A spacing that is not a positive number gives no fingerprints (it looped forever).
    func fingerprintGrid(spacing meters: Double) -> [Fingerprint] {
        guard meters.isFinite, meters > 0 else { return [] }
        var result: [Fingerprint] = []
        var y = 0.0
        while y <= 30 {
            var x = 0.0
            while x <= 40 {
                let point = Point3D(x: x, y: y, z: Self.deviceHeight)
                let nearest = nodes.sorted { $0.position.distance(to: point) < $1.position.distance(to: point) }.prefix(
                    8)
                var rssi: [String: Double] = [:]
                for node in nearest {
                    rssi[node.id] = LogDistance.rssi(
                        meters: node.position.distance(to: point), calibration: Self.calibration)
                }
                result.append(Fingerprint(position: point, rssi: rssi))
                x += meters
            }
            y += meters
        }
        return result
    }

    /// The Cramér–Rao bound of each device position.
    func bounds() -> [CramerRaoBound?] {
        zip(devices, heard).map { device, list in
            CramerRaoBound(
                device: device, nodes: list.map { nodes[$0.node].position }, sigma: sigma,
                exponent: Self.calibration.pathLossExponent)
        }
    }
}
