import HTTPTypes
import Hummingbird

/// Adds the browser's protections to every answer: a Content-Security-Policy that lets the map load its own modules,
/// style and floor images only (and no page frame it), no `Referer` sent from the map (its address may carry a
/// venue), no guessing of content types, and with TLS, Strict-Transport-Security. An answer that has a policy of its
/// own keeps it.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Whether the server is served over TLS (then HSTS is sent).
    let tls: Bool

    /// The map's policy: its own scripts, styles, requests and images, and floor images shown from `blob:` addresses.
    static var contentSecurityPolicy: String {
        "default-src 'self'; img-src 'self' blob: data:; object-src 'none'; base-uri 'none'; form-action 'self'; "
            + "frame-ancestors 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response = try await next(request, context)
        Self.add(to: &response.headers, tls: tls)
        return response
    }

    /// Adds the headers to `headers`.
    static func add(to headers: inout HTTPFields, tls: Bool) {
        // An answer with a policy of its own (an SVG floor image's, stricter) keeps it.
        if headers[.contentSecurityPolicy] == nil { headers[.contentSecurityPolicy] = contentSecurityPolicy }
        headers[.xContentTypeOptions] = "nosniff"
        if let referrer = HTTPField.Name("Referrer-Policy") { headers[referrer] = "no-referrer" }
        if let frames = HTTPField.Name("X-Frame-Options") { headers[frames] = "DENY" }
        if tls { headers[.strictTransportSecurity] = "max-age=31536000" }
    }
}
