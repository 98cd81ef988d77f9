import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import IndoorServer

/// One middleware per purpose: errors answered as JSON (``ErrorMiddleware``), requests counted
/// (``MetricsMiddleware``).
@Suite struct MiddlewareTests {
    /// A router with the server's two middlewares and two routes: `GET /ok` and `PUT /refused` (an ``APIError``).
    static func router(metrics: ServerMetrics) -> Router<BasicRequestContext> {
        let router = Router()
        let methods = RouteMethods()
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: ErrorMiddleware(routes: methods))
        router.get("/ok") { _, _ in "fine" }
        router.put("/refused/{id}") { _, context -> Response in
            throw APIError.badRequest(field: "id", "id '\(try context.parameters.require("id"))' is refused")
        }
        methods.record(router.routes.map { (path: $0.path.description, method: $0.method.rawValue) })
        return router
    }

    @Test func everyErrorIsAnsweredAsJSONNamingTheField() async throws {
        let app = Application(router: Self.router(metrics: ServerMetrics()))
        try await app.test(.router) { client in
            let refused = try await client.execute(uri: "/refused/x", method: .put)
            #expect(refused.status == .badRequest)
            #expect(refused.headers[.contentType] == "application/json")
            #expect(
                String(buffer: refused.body)
                    == #"{"code":"invalidValue","field":"id","message":"id 'x' is refused","status":400}"#)
            let unknown = try await client.execute(uri: "/nowhere", method: .get)
            #expect(unknown.status == .notFound)
            #expect(String(buffer: unknown.body).contains("no route GET /nowhere; see /openapi.json"))
            let method = try await client.execute(uri: "/refused/x", method: .get)
            #expect(method.status == .methodNotAllowed)
            #expect(method.headers[.allow] == "PUT")
        }
    }

    @Test func everyRequestIsCountedWithTheStatusItWasAnsweredWith() async throws {
        let metrics = ServerMetrics()
        let app = Application(router: Self.router(metrics: metrics))
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/ok", method: .get)
            _ = try await client.execute(uri: "/refused/x", method: .put)
            _ = try await client.execute(uri: "/refused/y", method: .put)
        }
        let text = metrics.text()
        #expect(text.contains(#"indoor_http_requests_total{method="GET",route="/ok",status="200"} 1"#))
        #expect(text.contains(#"indoor_http_requests_total{method="PUT",route="/refused/{id}",status="400"} 2"#))
        #expect(text.contains("indoor_http_request_duration_seconds"))
    }
}
