import IndoorModel
import Testing

@testable import IndoorPositioning

@Suite struct NadarayaWatsonTests {
    static func reading(_ id: String, x: Double, y: Double, distance: Double) -> NodeReading {
        NodeReading(
            node: Node(id: id, position: Point3D(x: x, y: y, z: 0)), rssi: -60, distance: distance,
            distanceVariance: 1, lastHeard: 0)
    }

    @Test func nodesAreWeighedByTheInverseSquareOfTheirRanges() throws {
        // Ranges 1, 2 and 2 m: weights ≈ 1, ¼, ¼, so x = (0·1 + 10·¼ + 0·¼) / 1.5 and y = (0 + 0 + 10·¼) / 1.5.
        let readings = [
            Self.reading("a", x: 0, y: 0, distance: 1), Self.reading("b", x: 10, y: 0, distance: 2),
            Self.reading("c", x: 0, y: 10, distance: 2),
        ]
        let estimate = try NadarayaWatson().estimate(from: readings).get()
        #expect(abs(estimate.position.x - 2.5 / 1.5) < 1e-5)
        #expect(abs(estimate.position.y - 2.5 / 1.5) < 1e-5)
        #expect(estimate.accuracy >= 1)
    }

    @Test func fourNodesAtEqualRangesGiveTheirCentre() throws {
        let readings = [
            Self.reading("a", x: 0, y: 0, distance: 5), Self.reading("b", x: 6, y: 0, distance: 5),
            Self.reading("c", x: 0, y: 8, distance: 5), Self.reading("d", x: 6, y: 8, distance: 5),
        ]
        let estimate = try NadarayaWatson().estimate(from: readings).get()
        #expect(abs(estimate.position.x - 3) < 1e-9 && abs(estimate.position.y - 4) < 1e-9)
        // Each node is exactly 5 m from (3, 4): no misfit, so the floor of 1 m.
        #expect(estimate.accuracy == 1)
    }

    @Test func twoNodesGiveTheirMidpointAndOneNoPosition() throws {
        let two = [Self.reading("a", x: 0, y: 0, distance: 3), Self.reading("b", x: 8, y: 2, distance: 1)]
        let estimate = try NadarayaWatson().estimate(from: two).get()
        #expect(estimate.position.x == 4 && estimate.position.y == 1)
        #expect(abs(estimate.accuracy - (68.0).squareRoot() / 2) < 1e-12)
        let one = NadarayaWatson().estimate(from: [Self.reading("a", x: 0, y: 0, distance: 3)])
        #expect(throws: NoFix.self) { try one.get() }
        if case .failure(let failure) = one { #expect(failure.code == .tooFewNodes) }
        if case .failure(let failure) = NadarayaWatson().estimate(from: []) { #expect(failure.code == .notHeard) }
    }

    @Test func aBadRangeIsRefusedNamingTheNode() {
        let result = NadarayaWatson().estimate(from: [
            Self.reading("a", x: 0, y: 0, distance: 1), Self.reading("b", x: 1, y: 0, distance: .nan),
        ])
        guard case .failure(let failure) = result else {
            Issue.record("a NaN range gave a position")
            return
        }
        #expect(failure.code == .invalidInput && failure.message.contains("'b'"))
    }

    @Test func theCatalogMakesItByName() throws {
        let nodes = [
            Node(id: "a", position: Point3D(x: 0, y: 0, z: 0)), Node(id: "b", position: Point3D(x: 10, y: 0, z: 0)),
        ]
        let engine = try MethodCatalog.engine(method: "nadaraya-watson", nodes: nodes)
        #expect(engine.methodName == "nadaraya-watson")
    }
}
