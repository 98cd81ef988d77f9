import IndoorModel
import IndoorPositioning
import Testing

/// The library example in README.md ("Using the package"), kept here so that it keeps compiling and working.
@Suite("README example")
struct ReadmeExampleTests {
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
        #expect(abs(fix.position.x - fix.position.y) < 0.01)
        #expect(fix.position.x > 0.5 && fix.position.x < 3.5)
        #expect(fix.accuracy > 0 && fix.accuracy.isFinite)
        #expect(fix.method == "nonlinear")
    }
}
