import Hummingbird

/// The map's routes, which need no key: the page (`GET /`), its modules and style (`/assets/{file}`, ``MapAssets``) and the
/// OpenAPI document (`GET /openapi.json`, ``OpenAPIDocument``), each served from the binary.
struct MapRoutes: RouteArea {
    let server: LocationServer

    /// The routes.
    func collection() -> RouteCollection<IndoorRequestContext> {
        let routes = RouteCollection(context: IndoorRequestContext.self)
        routes.get("/") { _, _ in AssetResponse(MapAssets.html, type: "text/html; charset=utf-8") }
        routes.get("/assets/{file}") { _, context in try MapAssets.response(for: context.parameters.require("file")) }
        routes.get("/openapi.json") { _, _ in AssetResponse(OpenAPIDocument.json, type: "application/json") }
        return routes
    }
}
