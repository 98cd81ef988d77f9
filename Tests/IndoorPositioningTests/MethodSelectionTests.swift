import IndoorModel
import Testing

@testable import IndoorPositioning

@Suite struct MethodSelectionTests {
    static let nodes = [
        Node(id: "a", position: Point3D(x: 0, y: 0, z: 0)), Node(id: "b", position: Point3D(x: 10, y: 0, z: 0)),
        Node(id: "c", position: Point3D(x: 0, y: 10, z: 0)),
    ]

    @Test func theMethodsAreNamedAsOnTheCommandLine() {
        #expect(
            MethodCatalog.Method.allCases.map(\.rawValue) == [
                "weighted-centroid", "nadaraya-watson", "nearest-area", "power-center", "epta", "sphere-intersection",
                "linear-least-squares", "nonlinear", "knn", "blend", "posterior", "radio-map", "auto",
                "particle-filter",
            ])
        #expect(
            MethodCatalog.names
                == MethodCatalog.Method.allCases.map(\.rawValue) + ["knn+track", "blend+track", "auto+track"])
        #expect(MethodCatalog.Method.allCases.filter(\.needsSurvey) == [.knn, .radioMap])
        #expect(MethodCatalog.defaultMethod == .auto && MethodCatalog.defaultName == "auto")
    }

    @Test(arguments: [
        ("blend+track", MethodCatalog.Selection(.blend, tracking: true)), ("epta", MethodCatalog.Selection(.epta)),
        ("knn+track", MethodCatalog.Selection(.knn, tracking: true)),
    ])
    func aSelectionParsesAndPrintsItsName(name: String, expected: MethodCatalog.Selection) {
        #expect(MethodCatalog.Selection(name) == expected)
        #expect(expected.name == name && expected.description == name)
    }

    @Test func defaultNamesTheDefaultMethod() throws {
        #expect(MethodCatalog.Selection("default") == MethodCatalog.Selection(.auto))
        #expect(MethodCatalog.isKnown("default") && MethodCatalog.defaultMethod == .auto)
        let engine = try MethodCatalog.engine(method: "default", nodes: Self.nodes)
        #expect(engine.methodName == "auto")
    }

    @Test(arguments: ["knn+track+track", "+track", "magic", "magic+track", "Blend", "blend+"])
    func notASelection(name: String) {
        #expect(MethodCatalog.Selection(name) == nil)
        #expect(!MethodCatalog.isKnown(name))
    }

    @Test func theTypedOverloadTracksWhenTheSelectionSays() throws {
        let tracked = try MethodCatalog.engine(
            MethodCatalog.Selection(.weightedCentroid, tracking: true), nodes: Self.nodes)
        #expect(tracked.methodName == "weighted-centroid+track")
        #expect(tracked.method.name == "weighted-centroid")
        #expect(tracked.configuration.tracking == PositionTrack.Configuration())
        var configuration = PositioningEngine.Configuration(tracking: PositionTrack.Configuration(step: 2))
        let plain = try MethodCatalog.engine(.init(.nonlinear), nodes: Self.nodes, configuration: configuration)
        #expect(plain.methodName == "nonlinear" && plain.configuration.tracking == nil)
        configuration.window = 7
        let tuned = try MethodCatalog.engine(
            .init(.epta, tracking: true), nodes: Self.nodes, configuration: configuration)
        #expect(tuned.configuration.tracking?.step == 2 && tuned.configuration.window == 7)
        #expect(throws: MissingSurveyError(method: "knn+track")) {
            try MethodCatalog.engine(.init(.knn, tracking: true), nodes: Self.nodes)
        }
    }
}
