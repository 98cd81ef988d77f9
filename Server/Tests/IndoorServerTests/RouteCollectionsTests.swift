import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import IndoorServer

/// The router is the areas' route collections: each area's routes, each with the key it needs.
@Suite struct RouteCollectionsTests {
    /// Each area's routes, as "METHOD path".
    static let areas: [String: Set<String>] = [
        "map": ["GET /", "GET /assets/{file}", "GET /openapi.json"],
        "status": ["GET /health", "GET /metrics"],
        "venues": [
            "GET /v1/venues", "GET /v1/venues/{venue}", "PUT /v1/venues/{venue}", "DELETE /v1/venues/{venue}",
            "GET /v1/venues/{venue}/floors/{level}/image", "PUT /v1/venues/{venue}/floors/{level}/image",
            "DELETE /v1/venues/{venue}/floors/{level}/image", "GET /v1/venues/{venue}/floors/{level}/image/placement",
            "PUT /v1/venues/{venue}/floors/{level}/image/placement",
        ],
        "read": [
            "GET /v1/venues/{venue}/devices", "GET /v1/venues/{venue}/devices/{device}", "GET /v1/venues/{venue}/nodes",
            "GET /v1/venues/{venue}/occupancy", "GET /v1/activity", "GET /v1/stream",
        ],
        "ingest": ["POST /v1/sightings", "POST /v1/scans"],
        "admin": ["POST /v1/keys", "GET /v1/keys", "DELETE /v1/keys/{id}", "GET /v1/audit"],
        "devices": ["DELETE /v1/devices/{device}", "GET /v1/devices/{device}/export"],
        "survey": [
            "GET /v1/venues/{venue}/survey", "PUT /v1/venues/{venue}/survey", "GET /v1/venues/{venue}/survey/export",
            "POST /v1/venues/{venue}/survey/recordings", "DELETE /v1/venues/{venue}/survey/recordings/{recording}",
            "POST /v1/venues/{venue}/survey/recordings/{recording}/marks",
            "POST /v1/venues/{venue}/survey/recordings/{recording}/stop",
        ],
        "history": ["GET /v1/venues/{venue}/history", "GET /v1/venues/{venue}/reports/zones"],
        "persons": [
            "GET /v1/venues/{venue}/persons", "GET /v1/venues/{venue}/persons/{person}",
            "PUT /v1/venues/{venue}/persons/{person}", "DELETE /v1/venues/{venue}/persons/{person}",
        ],
        "webhooks": [
            "POST /v1/webhooks", "GET /v1/webhooks", "GET /v1/webhooks/{id}", "DELETE /v1/webhooks/{id}",
            "GET /v1/webhooks/{id}/deliveries",
        ],
    ]

    /// The routes `collection` adds to a router, as "METHOD path".
    static func routes(_ collection: RouteCollection<IndoorRequestContext>) -> Set<String> {
        let router = Router(context: IndoorRequestContext.self)
        router.addRoutes(collection)
        return Set(router.routes.map { "\($0.method.rawValue) \($0.path.description)" })
    }

    @Test func eachAreaHasItsRoutesAndTheRouterAllOfThem() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let server = fixture.server
        let collections: [String: RouteCollection<IndoorRequestContext>] = [
            "map": MapRoutes(server: server).collection(),
            "status": StatusRoutes(server: server).collection(),
            "venues": VenueRoutes(server: server).collection(),
            "read": ReadRoutes(server: server).collection(),
            "ingest": IngestRoutes(server: server).collection(),
            "admin": AdminRoutes(server: server).collection(),
            "devices": DeviceRoutes(server: server).collection(),
            "survey": SurveyRoutes(server: server).collection(),
            "history": HistoryRoutes(server: server).collection(),
            "webhooks": WebhookRoutes(server: server).collection(),
            "persons": PersonRoutes(server: server).collection(),
        ]
        #expect(Set(collections.keys) == Set(Self.areas.keys))
        for (area, collection) in collections {
            #expect(Self.routes(collection) == Self.areas[area], "\(area)")
        }
        let all = Self.areas.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        #expect(all.count == 46)
        #expect(Set(server.router().routes.map { "\($0.method.rawValue) \($0.path.description)" }) == all)
    }

    /// One route of each area with no key, a key of another kind and the kind it needs.
    @Test(arguments: [
        ("/v1/venues", HTTPRequest.Method.get, ServerFixture.ingest, ServerFixture.read),
        ("/v1/venues/tiny", .delete, ServerFixture.read, ServerFixture.admin),
        ("/v1/venues/tiny/nodes", .get, ServerFixture.ingest, ServerFixture.read),
        ("/v1/scans", .post, ServerFixture.read, ServerFixture.ingest),
        ("/v1/keys", .post, ServerFixture.ingest, ServerFixture.admin),
        ("/v1/devices/x", .delete, ServerFixture.read, ServerFixture.admin),
        ("/v1/venues/tiny/survey", .get, ServerFixture.read, ServerFixture.admin),
    ])
    func eachAreaAsksForTheKeyItNeeds(uri: String, method: HTTPRequest.Method, wrong: String, right: String)
        async throws
    {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.execute(uri: uri, method: method).status == .unauthorized)
            let refused = try await client.execute(uri: uri, method: method, headers: ServerFixture.headers(wrong))
            #expect(refused.status == .forbidden)
            let admitted = try await client.execute(uri: uri, method: method, headers: ServerFixture.headers(right))
            #expect(admitted.status != .unauthorized && admitted.status != .forbidden)
        }
    }

    @Test func theMapAndTheBareHealthNeedNoKeyTheMetricsDo() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            for uri in ["/", "/assets/main.js", "/assets/map.css", "/openapi.json", "/health"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .ok, "\(uri)")
                #expect(response.headers[.cacheControl] == (uri == "/health" ? nil : "no-cache"), "\(uri)")
            }
            #expect(try await client.execute(uri: "/metrics", method: .get).status == .unauthorized)
            let metrics = try await client.get("/metrics")
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.cacheControl] == "no-cache")
        }
    }
}
