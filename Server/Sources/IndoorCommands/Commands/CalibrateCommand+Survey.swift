import Foundation
import IndoorModel
import IndoorPositioning

extension CalibrateCommand {
    /// What `indoor calibrate` read of a dataset's survey split, counted one sighting at a time: what its summary
    /// and its "no usable samples" message say.
    struct Survey {
        /// The dataset's name.
        let name: String
        /// `train` or `test`.
        let split: String
        /// The dataset's nodes, in file order.
        let nodes: [Node]
        /// Truth rows of the split.
        let truthRows: Int
        private let ids: Set<String>
        private let devices: Set<String>
        /// Sightings of the split.
        private(set) var sightings = 0
        /// Whether a sighting names a node of `nodes.csv`.
        private(set) var namesKnownNode = false
        /// Whether a sighting's device has truth rows.
        private(set) var hasDeviceWithTruth = false

        init(name: String, split: String, nodes: [Node], truth: [TruthPoint]) {
            self.name = name
            self.split = split
            self.nodes = nodes
            self.truthRows = truth.count
            self.ids = Set(nodes.map(\.id))
            self.devices = Set(truth.map(\.device))
        }

        /// Counts one sighting of the split.
        mutating func count(_ sighting: Sighting) {
            sightings += 1
            if !namesKnownNode, ids.contains(sighting.source.text) { namesKnownNode = true }
            if !hasDeviceWithTruth, devices.contains(sighting.device) { hasDeviceWithTruth = true }
        }

        /// The summary the command prints for `calibration`.
        func summary(_ calibration: Calibration) -> String {
            var lines = [
                "\(name): calibrated on \(split)/ (\(sightings) sightings, \(truthRows) truth rows)",
                String(
                    format: "pooled: %.1f dBm at 1 m, exponent %.2f; shadowing σ %.1f dB",
                    calibration.pooled.rssiAtOneMeter,
                    calibration.pooled.pathLossExponent, calibration.shadowingSigma),
            ]
            if let height = calibration.deviceHeight { lines.append(String(format: "device height %.2f m", height)) }
            lines.append("node          samples  rssi@1m  exponent")
            var listed: Set<String> = []
            // A duplicate id is one node to the fitter and the engine (the first); list it once.
            for node in nodes where listed.insert(node.id).inserted {
                let samples = calibration.samples[node.id] ?? 0
                let id = node.id.padding(toLength: 12, withPad: " ", startingAt: 0)
                if let fit = calibration.nodes[node.id] {
                    lines.append(
                        id + String(format: "  %7d  %7.1f  %8.2f", samples, fit.rssiAtOneMeter, fit.pathLossExponent))
                } else {
                    lines.append(id + String(format: "  %7d  (pooled)", samples))
                }
            }
            if !calibration.deviceOffsets.isEmpty {
                let values = calibration.deviceOffsets.values
                lines.append(
                    String(
                        format: "receiver offsets for %d devices, %.1f … %.1f dB", values.count, values.min() ?? 0,
                        values.max() ?? 0))
            }
            return lines.joined(separator: "\n") + "\n"
        }

        /// Why the survey gave no usable sample, in one line naming the dataset `folder` and the split.
        func noSamplesMessage(folder: String) -> String {
            let reason: String
            if sightings == 0 {
                reason = "\(split)/sightings.csv has no rows"
            } else if truthRows == 0 {
                reason = "\(split)/truth.csv has no rows"
            } else if !namesKnownNode {
                reason = "no sighting names a node of nodes.csv"
            } else if !hasDeviceWithTruth {
                reason = "no sighting's device has rows in \(split)/truth.csv"
            } else {
                reason = "no sighting of a known node has a finite RSSI in −200…50 dBm within its device's truth rows"
            }
            return "\(folder): no usable survey samples in \(split)/ (\(sightings) sightings, "
                + "\(truthRows) truth rows): \(reason); nothing to calibrate, no file written"
        }
    }
}
