import Foundation
import IndoorModel
import Testing

@testable import IndoorPositioning

/// Self-calibration from node-to-node links: the fit, the bounds, bad links, and links never making devices.
@Suite struct NodeLinkCalibrationTests {
    /// Eight nodes on one floor of a 30 × 20 m office.
    let nodes: [Node] = [
        (0.0, 0.0), (10, 0), (20, 0), (30, 0), (0, 20), (10, 20), (20, 20), (30, 20),
    ].enumerated().map { index, point in
        Node(id: "n\(index)", position: Point3D(x: point.0, y: point.1, z: 2.2))
    }
    /// Each node's true level (dBm at 1 m) and gain as the heard device (dB).
    let levels = [-55.0, -62, -58, -66, -52, -60, -63, -57]
    let gains = [2.0, -3, 0.5, 4, -1, -2.5, 1.5, -1.5]

    /// Every node heard by every other `samples` times, `rssi = L + D − 10 n log10 d` plus Gaussian noise of `sigma`
    /// dB; `exponents` per node (the hearing node's).
    func linkSightings(exponents: [Double], sigma: Double, samples: Int = 32, seed: UInt64 = 11) -> [Sighting] {
        var random = SplitMix64(seed: seed)
        var sightings: [Sighting] = []
        for round in 0..<samples {
            for (a, heard) in nodes.enumerated() {
                for (b, node) in nodes.enumerated() where a != b {
                    let meters = heard.position.distance(to: node.position)
                    let rssi =
                        levels[b] + gains[a] - 10 * exponents[b] * log10(meters) + sigma * random.standardNormal()
                    sightings.append(
                        Sighting(time: Double(round), device: "node:\(heard.id)", node: node.id, rssi: rssi))
                }
            }
        }
        return sightings
    }

    /// The fit's tuning for these links: 4 dB per sample, a link's median of 32 about 1 dB off.
    let tuning = NodeLinkCalibration.Configuration(linkSigma: 1)

    @Test func sharedFitRecoversLevelsUpToOneConstantAndTheExponent() throws {
        var calibrator = NodeLinkCalibration(nodes: nodes, configuration: tuning)
        for sighting in linkSightings(exponents: Array(repeating: 2.6, count: 8), sigma: 4) {
            #expect(calibrator.add(sighting) == .used)
        }
        let fit = try #require(calibrator.fit())
        #expect(fit.linksUsed == 56)
        // The venue's common level is not identifiable from links alone (it trades against the nodes' gains): every
        // level is off by the same constant, within 0.5 dB.
        let errors = try fit.nodes.enumerated().map { index, node in
            try #require(node.rssiAtOneMeter) - levels[index]
        }
        let spread = try #require(errors.max()) - #require(errors.min())
        #expect(spread < 1.0, "level errors \(errors)")
        #expect(abs(fit.pathLossExponent - 2.6) < 0.08, "exponent \(fit.pathLossExponent)")
        #expect(fit.nodes.allSatisfy { $0.links == 7 && $0.heardBy == 7 })
    }

    @Test func perNodeFitRecoversEachExponent() throws {
        let exponents = [2.0, 2.4, 2.8, 2.2, 3.0, 1.8, 2.6, 2.3]
        var calibrator = NodeLinkCalibration(
            nodes: nodes, configuration: NodeLinkCalibration.Configuration(perNodeExponent: true, linkSigma: 1))
        for sighting in linkSightings(exponents: exponents, sigma: 4) { calibrator.add(sighting) }
        let fit = try #require(calibrator.fit())
        for (index, node) in fit.nodes.enumerated() {
            #expect(abs(node.pathLossExponent - exponents[index]) < 0.3, "\(node.id): \(node.pathLossExponent)")
        }
    }

    @Test func theFitBecomesTheCalibrationOfNodesWithoutTheirOwn() throws {
        var calibrator = NodeLinkCalibration(nodes: nodes, configuration: tuning)
        for sighting in linkSightings(exponents: Array(repeating: 2.6, count: 8), sigma: 0) { calibrator.add(sighting) }
        let fit = try #require(calibrator.fit())
        var venue = nodes
        venue[0].calibration = NodeCalibration(rssiAtOneMeter: -70, pathLossExponent: 2)
        let calibration = try #require(fit.calibration(over: .uncalibrated, nodes: venue))
        #expect(calibration.nodes["n0"] == nil)
        #expect(calibration.nodes.count == 7)
        #expect(calibration.knowsPathLoss)
        #expect(abs(calibration.pooled.pathLossExponent - 2.6) < 0.03)
        #expect(calibration.samples["n1"] == 7)
    }

    @Test func linksBeyondTheWindowAndTheCapAreForgotten() throws {
        var calibrator = NodeLinkCalibration(
            nodes: nodes,
            configuration: NodeLinkCalibration.Configuration(window: 60, samplesPerLink: 4, maximumLinks: 2))
        calibrator.add(Sighting(time: 0, device: "node:n1", node: "n0", rssi: -70))
        calibrator.add(Sighting(time: 50, device: "node:n2", node: "n0", rssi: -75))
        #expect(calibrator.linkCount == 2)
        // A third link over the cap drops the one heard longest ago.
        calibrator.add(Sighting(time: 100, device: "node:n3", node: "n0", rssi: -80))
        #expect(calibrator.linkCount == 2)
        #expect(calibrator.links[UInt64(0) << 32 | 1] == nil)
        // Not heard for the window: forgotten.
        calibrator.forget(before: 111)
        #expect(calibrator.linkCount == 1)
        #expect(calibrator.counts.forgottenLinks == 2)
        // A link keeps its last `samplesPerLink` values: the level is their median.
        for rssi in [-90.0, -60, -61, -62, -63] {
            calibrator.add(Sighting(time: 101, device: "node:n3", node: "n0", rssi: rssi))
        }
        let link = try #require(calibrator.links[UInt64(0) << 32 | 3])
        #expect(link.samples.count == 4)
        #expect(link.level == -61.5)
    }

    @Test func aLinkNotKeptIsJudgedAndCountedAlike() {
        var kept = NodeLinkCalibration(nodes: nodes)
        var counted = NodeLinkCalibration(nodes: nodes)
        let sightings = [
            Sighting(time: 0, device: "node:n1", node: "n0", rssi: -70),
            Sighting(time: 1, device: "node:n1", node: "n0", rssi: -71),
            Sighting(time: 1, device: "node:n0", node: "n0", rssi: -40),
            Sighting(time: 1, device: "node:nowhere", node: "n0", rssi: -70),
            Sighting(time: 1, device: "phone", node: "n0", rssi: -70),
        ]
        for sighting in sightings {
            #expect(kept.add(sighting) == counted.add(sighting, keep: false))
        }
        #expect(kept.counts == counted.counts && kept.counts.used == 2)
        #expect(kept.linkCount == 1 && counted.linkCount == 0 && counted.fit() == nil)
    }

    @Test func badLinksAreIgnoredAndCounted() {
        var calibrator = NodeLinkCalibration(nodes: nodes)
        #expect(calibrator.add(Sighting(time: 0, device: "phone", node: "n0", rssi: -70)) == .notALink)
        #expect(calibrator.add(Sighting(time: 0, device: "node:nowhere", node: "n0", rssi: -70)) == .ignored)
        #expect(calibrator.add(Sighting(time: 0, device: "node:n1", node: "nowhere", rssi: -70)) == .ignored)
        #expect(calibrator.add(Sighting(time: 0, device: "node:n1", node: "n0", rssi: .nan)) == .ignored)
        #expect(calibrator.add(Sighting(time: 0, device: "node:n1", node: "n0", rssi: .infinity)) == .ignored)
        #expect(calibrator.add(Sighting(time: 0, device: "node:n0", node: "n0", rssi: -40)) == .ignored)
        #expect(calibrator.counts.unknownNode == 2)
        #expect(calibrator.counts.invalid == 2)
        #expect(calibrator.counts.unusable == 1)
        #expect(calibrator.counts.used == 0)
        #expect(calibrator.linkCount == 0)
        #expect(calibrator.fit() == nil)
    }

    @Test func aNodesBeaconIdentityNamesItToo() {
        let beacon = BeaconID(uuid: UUID(), major: 1, minor: 2)
        var venue = nodes
        venue[1].beacon = beacon
        var calibrator = NodeLinkCalibration(nodes: venue)
        #expect(calibrator.isNodeDevice(beacon.text))
        #expect(calibrator.add(Sighting(time: 0, device: beacon.text, node: "n0", rssi: -70)) == .used)
        #expect(calibrator.links[UInt64(0) << 32 | 1] != nil)
    }

    @Test func linkSightingsMakeNoDevice() throws {
        var engine = try MethodCatalog.engine(method: "auto", nodes: nodes)
        #expect(engine.isSelfCalibrating)
        let links = linkSightings(exponents: Array(repeating: 2.6, count: 8), sigma: 2, samples: 12)
        #expect(engine.ingest(links) == links.count)
        engine.ingest(Sighting(time: 12, device: "node:nowhere", node: "n0", rssi: -70))
        engine.ingest(Sighting(time: 12, device: "node:n1", node: "n0", rssi: .nan))
        #expect(engine.deviceCount == 0)
        #expect(engine.fixes(at: 12).isEmpty)
        #expect(engine.linkCalibration.counts.ignored == 2)
        // Refitted every 10 s of the links' time: at 0 and 10; the method now works over the fit.
        let fit = try #require(engine.linkFit)
        #expect(engine.calibration.nodes.count == 8)
        #expect(engine.calibration.pooled.pathLossExponent == fit.pathLossExponent)
    }

    @Test func offWithoutItsConfigurationOrWithASurveysCalibration() throws {
        var configuration = PositioningEngine.Configuration()
        configuration.selfCalibration = nil
        var off = try MethodCatalog.engine(method: "auto", nodes: nodes, configuration: configuration)
        let known = Calibration(pooled: NodeCalibration(rssiAtOneMeter: -62, pathLossExponent: 2.3))
        var calibrated = try MethodCatalog.engine(method: "auto", nodes: nodes, calibration: known)
        #expect(!off.isSelfCalibrating && !calibrated.isSelfCalibrating)
        for sighting in linkSightings(exponents: Array(repeating: 2.6, count: 8), sigma: 2, samples: 12) {
            off.ingest(sighting)
            calibrated.ingest(sighting)
        }
        #expect(off.linkFit == nil && calibrated.linkFit == nil)
        // Judged and counted, not kept: nothing would fit them.
        #expect(off.linkCalibration.counts.used == 12 * 56 && calibrated.linkCalibration.counts.used == 12 * 56)
        #expect(off.linkCalibration.linkCount == 0 && calibrated.linkCalibration.linkCount == 0)
        #expect(off.calibration == .uncalibrated && calibrated.calibration == known)
        #expect(off.deviceCount == 0 && calibrated.deviceCount == 0)
    }

    /// A phone walking along the office's middle at 1 m/s for `seconds`, heard by every node four times a second with
    /// the links' model (its own gain 0) and 3 dB of noise, the links of ``linkSightings(exponents:sigma:samples:seed:)``
    /// interleaved by time.
    func walkWithLinks(seconds: Int) -> [Sighting] {
        var random = SplitMix64(seed: 5)
        var sightings = linkSightings(exponents: Array(repeating: 2.6, count: 8), sigma: 3, samples: seconds)
        for step in 0..<(seconds * 4) {
            let time = Double(step) / 4 + 0.1
            let phone = Point3D(x: 2 + time, y: 10, z: 1.2)
            for (index, node) in nodes.enumerated() {
                let rssi = levels[index] - 26 * log10(phone.distance(to: node.position)) + 3 * random.standardNormal()
                sightings.append(Sighting(time: time, device: "phone", node: node.id, rssi: rssi))
            }
        }
        return sightings.sorted { $0.time < $1.time }
    }

    @Test func anEngineThatAdoptsAnothersLinkFitAnswersAsOneThatFittedTheLinks() throws {
        let factory = EngineFactory(nodes: nodes)
        var primary = try factory.engine(method: "auto")
        // The fallback as a session had it before: every sighting, links too, fitted by itself.
        var fitting = try factory.engine(method: "nonlinear")
        // The fallback as a session has it now: devices' sightings only, the primary's fits adopted.
        var adopting = fitting
        var blind = fitting
        var differs = false
        var fixes = 0
        for sighting in walkWithLinks(seconds: 40) {
            fitting.ingest(sighting)
            if primary.linkCalibration.isNodeDevice(sighting.device) {
                let revision = primary.linkFitRevision
                primary.ingest(sighting)
                if primary.linkFitRevision != revision, let fit = primary.linkFit, let time = primary.linkFitTime {
                    adopting.adoptLinkFit(fit, at: time)
                }
                continue
            }
            primary.ingest(sighting)
            adopting.ingest(sighting)
            blind.ingest(sighting)
            let answer = adopting.locate(device: sighting.device, at: sighting.time)
            #expect(answer == fitting.locate(device: sighting.device, at: sighting.time), "t = \(sighting.time)")
            if case .success = answer { fixes += 1 }
            if answer != blind.locate(device: sighting.device, at: sighting.time) { differs = true }
        }
        #expect(fixes > 100)
        // The fit matters to this method's answers, so the comparison above could fail.
        #expect(differs)
        #expect(adopting.linkFitRevision == fitting.linkFitRevision && adopting.linkFitRevision >= 1)
        #expect(adopting.linkFit == fitting.linkFit && adopting.linkFitTime == fitting.linkFitTime)
        #expect(adopting.calibration == fitting.calibration)
        #expect(adopting.linkCalibration.linkCount == 0 && adopting.linkCalibration.counts.used == 0)
        #expect(fitting.linkCalibration.linkCount == 56)
    }

    @Test func anEngineWithoutSelfCalibrationAdoptsNoFit() throws {
        var primary = try MethodCatalog.engine(method: "auto", nodes: nodes)
        for sighting in linkSightings(exponents: Array(repeating: 2.6, count: 8), sigma: 2, samples: 12) {
            primary.ingest(sighting)
        }
        let fit = try #require(primary.linkFit)
        #expect(primary.linkFitTime == 10 && primary.linkFitRevision == 1)
        var configuration = PositioningEngine.Configuration()
        configuration.selfCalibration = nil
        var off = try MethodCatalog.engine(method: "nonlinear", nodes: nodes, configuration: configuration)
        off.adoptLinkFit(fit, at: 10)
        #expect(off.linkFit == nil && off.linkFitTime == nil && off.linkFitRevision == 0)
        #expect(off.calibration == .uncalibrated)
    }
}
