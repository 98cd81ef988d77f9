import Foundation
import IndoorModel
import IndoorRanging
import Testing

@testable import IndoorPositioning

/// The engine under hostile input: absurd RSSI and transmit powers, times jumping both ways, many devices.
@Suite struct PositioningEngineUnusualInputTests {
    static let filters: [RSSIFilter.Kind] = [
        .androidDefault, .arma(coefficient: 0.1), .kalman(processNoise: 4, measurementNoise: 16),
    ]

    @Test(arguments: filters)
    func hostileSightingsNeverCrashLeakNaNOrGrowUnbounded(filter: RSSIFilter.Kind) {
        var nodes: [Node] = []
        for index in 0..<12 {
            nodes.append(
                Node(id: "n\(index)", position: Point3D(x: Double(index % 4) * 8, y: Double(index / 4) * 8, z: 2.5)))
        }
        nodes.append(Node(id: "n0", position: Point3D(x: 99, y: 99, z: 0)))  // a duplicate id
        nodes.append(Node(id: "twin", position: nodes[5].position))  // two nodes on one spot
        let configuration = PositioningEngine.Configuration(
            filter: filter, deviceExpiry: 30, maximumDevices: 16, maximumNodesPerDevice: 6,
            plausibleArea: .unlimited)
        let absurd: [Double] = [1e308, -1e308, 1e300, -5000, 400, 0, -0.0, .nan, .infinity]
        var random = SplitMix64(seed: 9)
        for name in MethodCatalog.names where MethodCatalog.Selection(name)?.needsSurvey == false {
            guard var engine = try? MethodCatalog.engine(method: name, nodes: nodes, configuration: configuration)
            else {
                Issue.record("no engine for \(name)")
                continue
            }
            var time = 0.0
            for step in 0..<600 {
                // Mostly forward, sometimes far back or far ahead.
                time += random.unit() < 0.05 ? (random.unit() - 0.7) * 500 : random.unit()
                let node = nodes[Int(random.next() % UInt64(nodes.count))]
                let rssi = step % 7 == 0 ? absurd[Int(random.next() % UInt64(absurd.count))] : -50 - random.unit() * 40
                let txPower: Double? = step % 5 == 0 ? absurd[Int(random.next() % UInt64(absurd.count))] : nil
                let device = "d\(random.next() % 40)"
                engine.ingest(Sighting(time: time, device: device, node: node.id, rssi: rssi, txPower: txPower))
                #expect(engine.deviceCount <= 16)
                if step % 10 == 0 {
                    for fix in engine.fixes(at: time) {
                        let p = fix.position
                        #expect(
                            p.x.isFinite && p.y.isFinite && p.z.isFinite && fix.accuracy.isFinite
                                && (0...1).contains(fix.confidence), "\(name), step \(step)")
                    }
                    for reading in engine.readings(device: device, at: time) {
                        #expect(reading.rssi.isFinite && reading.distance.isFinite && reading.distanceVariance.isFinite)
                    }
                }
            }
        }
    }
}
