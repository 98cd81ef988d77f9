import Foundation
import IndoorModel

/// What the simulator produced: the venue, the dataset in the shared layout, and the walkers' true paths.
public struct SimulatedDataset: Hashable, Sendable {
    /// The building: floors with walls, beacon nodes with identities and calibration, a geo anchor.
    public var venue: Venue
    /// Nodes, the survey walk (`train/`) and the walkers (`test/`); sightings name nodes by id.
    public var dataset: Dataset
    /// The exact path of each walker of `test/`, by device id (truth rows are samples of these).
    public var trajectories: [String: Trajectory]
    /// The exact path of the survey walker of `train/`.
    var surveyTrajectory: Trajectory
    /// Each walker's receiver gain offset in dB, by device id.
    var receiverOffsets: [String: Double]
    /// The options it was made with.
    public var options: SimulatorOptions

    /// The beacon identity of the node a sighting names, when it is a beacon of the venue.
    ///
    /// - Complexity: O(nodes) per call; for many sightings use ``beaconSightings(_:)``, which looks nodes up once.
    public func beacon(of sighting: Sighting) -> BeaconID? {
        switch sighting.source {
        case .beacon(let beacon): return beacon
        case .node(let id): return venue.nodes.first { $0.id == id }?.beacon
        }
    }

    /// `sightings` with each node source replaced by the node's beacon identity (as a phone would report them).
    public func beaconSightings(_ sightings: [Sighting]) -> [Sighting] {
        let beacons = Dictionary(
            venue.nodes.compactMap { node in node.beacon.map { (node.id, $0) } },
            uniquingKeysWith: { first, _ in first })
        return sightings.map { sighting in
            guard case .node(let id) = sighting.source, let beacon = beacons[id] else { return sighting }
            var copy = sighting
            copy.source = .beacon(beacon)
            return copy
        }
    }

    /// The dataset folder's files as (relative path, contents): `README.md`, `venue.json`, `nodes.csv`,
    /// `train/` and `test/` with `sightings.csv` and `truth.csv`. The same dataset always gives the same bytes.
    public func files() throws -> [(path: String, contents: String)] {
        var files: [(path: String, contents: String)] = []
        files.append(("README.md", readme()))
        files.append(("venue.json", String(decoding: try venue.encodeJSON(), as: UTF8.self) + "\n"))
        files.append(("nodes.csv", DatasetCSV.nodesText(dataset.nodes)))
        if let train = dataset.train {
            files.append(("train/sightings.csv", DatasetCSV.sightingsText(train.sightings)))
            files.append(("train/truth.csv", DatasetCSV.truthText(train.truth)))
        }
        files.append(("test/sightings.csv", DatasetCSV.sightingsText(dataset.test.sightings)))
        files.append(("test/truth.csv", DatasetCSV.truthText(dataset.test.truth)))
        return files
    }

    /// How many rows the dataset's files hold.
    public var counts: SimulationCounts {
        var counts = SimulationCounts()
        counts.trainSightings = dataset.train?.sightings.count ?? 0
        counts.trainTruth = dataset.train?.truth.count ?? 0
        counts.testSightings = dataset.test.sightings.count
        counts.testTruth = dataset.test.truth.count
        return counts
    }

    /// The dataset's README: what it is, how it was made, what moves and what is fixed.
    public func readme() -> String {
        readme(counts: counts)
    }

    /// The dataset's README, stating `counts` as the number of rows of each file (for a dataset whose rows were
    /// streamed to files by ``Simulator/stream(sighting:truth:progress:)`` rather than held).
    public func readme(counts: SimulationCounts) -> String {
        let o = options
        let length = Double(o.roomsPerSide) * o.roomWidth
        let width = 2 * o.roomDepth + o.corridorWidth
        let floors =
            o.floors == 1 ? "one floor" : "\(o.floors) floors (levels 0…\(o.floors - 1), \(n(o.floorHeight)) m apart)"
        let uuid = venue.nodes.first?.beacon?.uuid.uuidString ?? Simulator.beaconUUID.uuidString
        return """
            # \(dataset.name): simulated office (indoor simulate, seed \(o.seed))

            **Simulated** with `indoor simulate`: no real radio was involved. Phone-side positioning: the
            beacons (`nodes.csv`) are **fixed** on walls, the phones that hear them **move**. The same seed and
            options give byte-identical files.

            ## Building
            An office of \(floors), each \(n(length)) m x \(n(width)) m: \(o.roomsPerSide) rooms of \
            \(n(o.roomWidth)) m x \(n(o.roomDepth)) m on each side of a \(n(o.corridorWidth)) m corridor along x, \
            each room with a 1 m door in the middle of its corridor wall; stairs at the west end of the corridor.
            Metres in the building's frame: x along the corridor, y across it, z above the node's or truth row's
            floor. `venue.json` holds the floors with their walls, the nodes with beacon identities and
            calibration, one zone per room (`room-<level>-<k>`, rooms numbered along the south side, then the
            north) and one per corridor (`corridor-<level>`), each fenced by its rectangle on its floor, the
            stairs (with several floors: the connection `stairs`, the corridor's west end up to
            \(n(2 * OfficeLayout(options: o).stairs.x)) m from the end wall) and a geo anchor.

            ## Nodes
            \(o.beaconsPerFloor) beacons per floor, \(n(o.beaconHeight)) m above the floor, about 60% on the outer
            walls of rooms and the rest on the corridor walls. Node `b<level>-<k>` advertises the iBeacon
            identity `\(uuid)/<level>/<k>`. Each beacon's power at 1 m is drawn around \(n(o.rssiAtOneMeter)) dBm
            (σ \(n(o.beaconPowerSigma)) dB) and written to `venue.json` as `rssiAt1m`.

            ## Radio model
            Every \(n(o.advertisingInterval)) s (+0…10 ms) each beacon advertises; each phone receives the packet
            with RSSI = rssiAt1m − 10·\(n(o.pathLossExponent))·log10(d) − \(n(o.wallLoss)) dB per wall crossed −
            \(n(o.floorLoss)) dB per floor + the phone's own offset (σ \(n(o.deviceOffsetSigma)) dB) + shadowing
            N(0, \(n(o.shadowingSigma))²) dB drawn per packet + slow shadowing per beacon and phone (σ
            \(n(o.slowShadowingSigma)) dB, decorrelating over \(n(o.slowShadowingDistance)) m moved or
            \(n(o.slowShadowingTime)) s), rounded to whole dBm; d is the 3-D distance in metres. Packets below
            \(n(o.sensitivity)) dBm are not heard and \(n(o.packetLoss * 100))% of the rest are lost.

            ## train/ (survey)
            Device `survey` (no receiver offset) walks each floor's corridor and stops \(n(o.surveyDwell)) s at
            the corridor point by every door and at the centre of every room. Truth every \(n(o.truthInterval)) s.

            ## test/ (scored)
            \(o.devices) walkers (`walker-1`, …) during \(n(o.duration)) s: each walks at about \(n(o.walkingSpeed)) m/s
            from room to random room through doors and the corridor (and the stairs, between floors), pausing
            \(n(o.pause.lowerBound))…\(n(o.pause.upperBound)) s in each room. Truth every \(n(o.truthInterval)) s,
            phone \(n(o.deviceHeight)) m above the floor.

            Counts: \(dataset.nodes.count) nodes; train \(counts.trainSightings) sightings, \
            \(counts.trainTruth) truth rows; test \(counts.testSightings) sightings, \
            \(counts.testTruth) truth rows.

            Licence: generated data, free to use (CC0).

            """
    }

    private func n(_ value: Double) -> String { DatasetCSV.number(value) }
}
