import Dispatch
import Hummingbird
import NIOCore

/// Counts every request in the metrics and answers every error as JSON naming the field: the handlers'
/// ``APIError``s, a body over the limit (413), an unknown route (404), a known path asked with a method it does not
/// answer (405 with `Allow`) and anything unexpected (500, logged without the request's keys).
struct APIMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics
    /// The methods of each route path, for 405 answers.
    let routes: RouteMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let start = DispatchTime.now().uptimeNanoseconds
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as APIError {
            response = try error.response(from: request, context: context)
        } catch is NIOTooManyBytesError {
            response = try APIError.tooLarge(field: "body", "the body is larger than the server takes")
                .response(from: request, context: context)
        } catch let error as HTTPError
            where error.status == .notFound && !routes.allowed(path: request.uri.path).isEmpty
        {
            let allowed = routes.allowed(path: request.uri.path)
            response = try APIError(
                status: .methodNotAllowed, code: "methodNotAllowed", field: "method",
                message: "\(request.method) is not allowed on \(request.uri.path); allowed: "
                    + allowed.joined(separator: ", ")
            ).response(from: request, context: context)
            response.headers[.allow] = allowed.joined(separator: ", ")
        } catch let error as HTTPError {
            let field: String? = error.status == .notFound ? "path" : nil
            let message =
                error.status == .notFound
                ? "no route \(request.method) \(request.uri.path); see /openapi.json"
                : (error.body ?? "\(error.status.reasonPhrase)")
            response = try APIError(status: error.status, code: "http", field: field, message: message)
                .response(from: request, context: context)
        } catch {
            context.logger.error(
                "request failed", metadata: ["route": "\(context.endpointPath ?? "-")", "error": "\(error)"])
            response = try APIError(
                status: .internalServerError, code: "internal", field: nil, message: "the server failed: \(error)"
            ).response(from: request, context: context)
        }
        let elapsed = Int64(DispatchTime.now().uptimeNanoseconds - start)
        metrics.recordRequest(
            method: request.method.rawValue, route: context.endpointPath ?? "unmatched", status: response.status.code,
            nanoseconds: elapsed)
        return response
    }
}
