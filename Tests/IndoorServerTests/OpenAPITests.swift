import Foundation
import Hummingbird
import HummingbirdTesting
import IndoorServer
import Testing

@Suite struct OpenAPITests {
    static var document: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8))) as? [String: Any] ?? [:]
    }

    @Test func everyRouteOfTheRouterIsInTheDocument() throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let paths = try #require(Self.document["paths"] as? [String: [String: Any]])
        let routes = fixture.server.router().routes
        #expect(routes.count >= 15)
        for route in routes {
            let path = route.path.description.hasPrefix("/") ? route.path.description : "/" + route.path.description
            let operations = paths[path.replacingOccurrences(of: ":", with: "")] ?? paths[path]
            #expect(operations?[route.method.rawValue.lowercased()] != nil, "\(route.method) \(path) is not documented")
        }
        let documented = paths.values.reduce(0) { $0 + $1.keys.filter { $0 != "parameters" }.count }
        #expect(documented == routes.count, "the document lists \(documented) operations, the router \(routes.count)")
    }

    @Test func theServedDocumentIsDocsOpenAPIJSON() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = try String(contentsOf: root.appendingPathComponent("docs/openapi.json"), encoding: .utf8)
        #expect(file.trimmingCharacters(in: .newlines) == OpenAPIDocument.json)
        #expect(Self.document["openapi"] as? String == "3.1.0")
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            let served = try await client.get("/openapi.json", key: nil)
            #expect(served.text == OpenAPIDocument.json)
            let page = try await client.get("/", key: nil)
            #expect(page.text.contains("/assets/map.js"))
            #expect(try await client.get("/assets/map.js", key: nil).text.contains("EventSource"))
            #expect(try await client.get("/assets/map.css", key: nil).status == .ok)
        }
    }
}
