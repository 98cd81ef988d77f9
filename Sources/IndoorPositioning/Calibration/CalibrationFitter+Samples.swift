import Foundation
import IndoorModel

extension CalibrationFitter {
    /// Survey samples gathered one sighting at a time for ``CalibrationFitter/fit(_:)``: per usable sighting only
    /// its node, its device and its (log10 distance, RSSI), 24 bytes, never the sighting itself.
    ///
    /// The robust fit needs every sample at once (medians of residuals, reweighted passes), so they are kept; the
    /// survey's truth rows are kept too, to place each sighting by interpolating its device's truth.
    public struct Samples: Sendable {
        /// One usable sighting: indices of its node and device, the log10 of its distance in metres, its RSSI in dBm.
        struct Sample: Sendable {
            var node: Int32
            var device: Int32
            var logDistance: Double
            var rssi: Double
        }

        /// The nodes, later duplicates of an id left out.
        let nodes: [Node]
        private let nodeIndex: [String: Int]
        private let tracks: [String: TruthTrack]
        private let configuration: Configuration
        /// The devices of the samples, in the order first seen.
        private(set) var deviceNames: [String] = []
        private var deviceIndex: [String: Int] = [:]
        /// The samples, in the order their sightings were added.
        private(set) var samples: [Sample] = []
        /// The median truth height, metres, `nil` when the truth has none.
        let deviceHeight: Double?

        init(nodes listed: [Node], truth: [TruthPoint], configuration: Configuration) {
            // Later duplicates of an id are ignored, as the engine does.
            var nodeIndex: [String: Int] = [:]
            var nodes: [Node] = []
            for node in listed where nodeIndex[node.id] == nil {
                nodeIndex[node.id] = nodes.count
                nodes.append(node)
            }
            self.nodes = nodes
            self.nodeIndex = nodeIndex
            self.tracks = TruthTrack.tracks(truth)
            self.configuration = configuration
            let heights = truth.compactMap(\.z).sorted()
            self.deviceHeight = heights.isEmpty ? nil : heights[heights.count / 2]
        }

        /// The number of usable sightings added.
        public var count: Int { samples.count }

        /// The most samples kept: 2³¹ − 1 (48 GiB of them); later sightings are skipped.
        public static let capacity = Int(Int32.max)

        /// Takes one survey sighting, in any order.
        ///
        /// A sighting of an unknown node, with a non-finite RSSI or one outside ``Configuration/sampleRange``, without
        /// a finite distance to the truth, or at a time its device's truth does not cover is skipped, and so is any
        /// beyond ``capacity``.
        /// - Returns: whether it became a sample.
        @discardableResult
        public mutating func add(_ sighting: Sighting) -> Bool {
            guard samples.count < Self.capacity, sighting.rssi.isFinite,
                configuration.sampleRange.contains(sighting.rssi),
                let index = nodeIndex[sighting.source.text],
                let truth = tracks[sighting.device]?.position(at: sighting.time)
            else { return false }
            let node = nodes[index]
            let dz = (truth.z ?? node.position.z) - node.position.z
            let dx = truth.point.x - node.position.x
            let dy = truth.point.y - node.position.y
            let meters = max((dx * dx + dy * dy + dz * dz).squareRoot(), configuration.minimumDistance)
            // A truth row or node with a non-finite coordinate gives no distance (max keeps NaN), so no sample.
            guard meters.isFinite, meters > 0 else { return false }
            let device: Int
            if let known = deviceIndex[sighting.device] {
                device = known
            } else {
                device = deviceNames.count
                deviceIndex[sighting.device] = device
                deviceNames.append(sighting.device)
            }
            samples.append(
                Sample(node: Int32(index), device: Int32(device), logDistance: log10(meters), rssi: sighting.rssi))
            return true
        }
    }
}
