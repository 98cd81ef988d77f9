import IndoorModel
import IndoorPositioning
import Testing

/// The engine on its own, as docs/POSITIONING.md shows it: three nodes, one phone, one `nonlinear` fix.
@Suite("The positioning engine on its own")
struct PositioningEngineExampleTests {
    @Test func theLibraryExampleLocatesThePhoneNearTheStrongestNode() throws {
        let nodes = [
            Node(id: "a", position: Point3D(x: 0, y: 0, z: 2.5)),
            Node(id: "b", position: Point3D(x: 10, y: 0, z: 2.5)),
            Node(id: "c", position: Point3D(x: 0, y: 10, z: 2.5)),
        ]
        var engine = try MethodCatalog.engine(method: "nonlinear", nodes: nodes)
        engine.ingest(Sighting(time: 0.0, device: "phone", node: "a", rssi: -65))
        engine.ingest(Sighting(time: 0.1, device: "phone", node: "b", rssi: -75))
        engine.ingest(Sighting(time: 0.2, device: "phone", node: "c", rssi: -75))
        let fix = try engine.locate(device: "phone", at: 0.2).get()
        // -65 dBm at a and -75 dBm at b and c (-59 dBm at 1 m, exponent 2): about 2 m from a, 5.6 m from b and c,
        // so the phone is on the diagonal, nearer a.
        // Exactly (the solver is deterministic): on the diagonal, 2.18 m from a.
        #expect(abs(fix.position.x - 1.5424505867649725) < 1e-9)
        #expect(abs(fix.position.y - 1.5424505867649716) < 1e-9)
        #expect(abs(fix.accuracy - 5.314658003346195) < 1e-9)
        #expect(fix.method == "nonlinear")
    }
}
