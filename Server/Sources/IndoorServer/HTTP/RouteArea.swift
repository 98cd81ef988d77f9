import Hummingbird

/// One area of the API as a collection of routes (``MapRoutes``, ``StatusRoutes``, ``VenueRoutes``, ``ReadRoutes``,
/// ``IngestRoutes``, ``AdminRoutes``, ``DeviceRoutes``, ``SurveyRoutes``), over the server's parts; ``LocationServer/router()`` adds each area's.
protocol RouteArea: Sendable {
    /// The server whose parts the routes use.
    var server: LocationServer { get }

    /// The area's routes, each behind the key it needs.
    func collection() -> RouteCollection<IndoorRequestContext>
}

extension RouteArea {
    var hub: VenueHub { server.hub }
    var store: any LocationStore { server.hub.store }
    var configuration: ServerConfiguration { server.configuration }
    var metrics: ServerMetrics { server.metrics }
    /// In a cluster: sends requests about venues running elsewhere to their instance.
    var forwarder: OwnerForwarder { server.forwarder }

    /// A group of `routes` behind a key of `kind` (``KeyAuthenticator``; an admin key is admitted everywhere).
    func group(
        of routes: RouteCollection<IndoorRequestContext>, needing kind: KeyKind
    ) -> RouterGroup<IndoorRequestContext> {
        routes.group().add(middleware: KeyAuthenticator(keys: server.keys, required: kind, failures: server.failedKeys))
    }
}
