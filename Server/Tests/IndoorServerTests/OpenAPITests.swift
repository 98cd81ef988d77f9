import Foundation
import Hummingbird
import HummingbirdTesting
import IndoorServer
import Testing

@Suite struct OpenAPITests {
    static var document: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8))) as? [String: Any] ?? [:]
    }

    @Test func everyRouteOfTheRouterIsInTheDocument() async throws {
        let fixture = try await ServerFixture()
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

    @Test func theDocumentAndTheMapAreServedFromTheBinary() async throws {
        #expect(Self.document["openapi"] as? String == "3.1.0")
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            let served = try await client.get("/openapi.json", key: nil)
            #expect(served.status == .ok)
            #expect(served.text == OpenAPIDocument.json)
            let page = try await client.get("/", key: nil)
            #expect(page.text.hasPrefix("<!doctype html>"))
            #expect(page.text.contains(#"<script type="module" src="/assets/main.js">"#))
            #expect(try await client.get("/assets/stream.js", key: nil).text.contains("text/event-stream"))
            #expect(try await client.get("/assets/map.css", key: nil).status == .ok)
            // Every module the page loads, from main.js through the imports, is served as JavaScript.
            var modules = ["main.js"]
            var seen: Set<String> = []
            while let name = modules.popLast() {
                guard seen.insert(name).inserted else { continue }
                let served = try await client.get("/assets/\(name)", key: nil)
                #expect(served.status == .ok, "\(name)")
                #expect(served.headers[.contentType] == "text/javascript; charset=utf-8", "\(name)")
                modules += served.text.matches(of: /(?:from|import) "\.\/([\w-]+\.js)"/).map { String($0.1) }
            }
            #expect(seen.count >= 10)
            let unknown = try await client.get("/assets/map.js", key: nil)
            #expect(unknown.status == .notFound)
            #expect(unknown.json["field"] as? String == "file")
        }
    }

    /// Values the document allowed but the server refuses (found by schemathesis' `positive_data_acceptance`): the
    /// document now says so, and the server still answers them 400 naming the field.
    @Test func theDocumentStatesWhatTheServerRefuses() async throws {
        let paths = try #require(Self.document["paths"] as? [String: [String: Any]])
        let activity = try #require(paths["/v1/activity"]?["get"] as? [String: Any])
        let parameters = try #require(activity["parameters"] as? [[String: Any]])
        for name in ["venue", "cursor"] {
            let schema = parameters.first { $0["name"] as? String == name }?["schema"] as? [String: Any]
            #expect(schema?["minLength"] as? Int == 1, "\(name) must not be empty")
        }
        let schemas = try #require((Self.document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let venue = try #require(schemas["Venue"] as? [String: Any])
        let anchor = (venue["properties"] as? [String: Any])?["anchor"] as? [String: Any]
        #expect(anchor?["required"] as? [String] == ["latitude", "longitude"])

        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            let empty = try await client.get("/v1/activity?venue=")
            #expect(empty.status == .badRequest)
            #expect(empty.json["field"] as? String == "venue")
            _ = try await client.putVenue()
            let cursor = try await client.get("/v1/activity?venue=tiny&cursor=")
            #expect(cursor.status == .badRequest)
            #expect(cursor.json["field"] as? String == "cursor")
            let anchorless = try await client.putVenue(#"{"id": "tiny", "anchor": {}}"#)
            #expect(anchorless.status == .badRequest)
            #expect(anchorless.json["field"] as? String == "anchor")
        }
    }
}
