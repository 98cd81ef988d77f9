import HTTPTypes
import Hummingbird
import NIOCore

/// Answers every error as JSON naming the field (``APIError``): the handlers' ``APIError``s, a body over the limit
/// (413), an unknown route (404), a known path asked with a method it does not answer (405 with `Allow`) and anything
/// unexpected (500 with a generic message and a request id, in `X-Request-Id` too; the error logged under that id,
/// without the request's keys).
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The methods of each route path, for 405 answers.
    let routes: RouteMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch is NIOTooManyBytesError {
            return try APIError.tooLarge(field: "body", "the body is larger than the server takes")
                .response(from: request, context: context)
        } catch let error as HTTPError
            where error.status == .notFound && !routes.allowed(path: request.uri.path).isEmpty
        {
            let allowed = routes.allowed(path: request.uri.path)
            var response = try APIError(
                status: .methodNotAllowed, code: "methodNotAllowed", field: "method",
                message: "\(request.method) is not allowed on \(request.uri.path); allowed: "
                    + allowed.joined(separator: ", ")
            ).response(from: request, context: context)
            response.headers[.allow] = allowed.joined(separator: ", ")
            return response
        } catch let error as HTTPError {
            let field: String? = error.status == .notFound ? "path" : nil
            let message =
                error.status == .notFound
                ? "no route \(request.method) \(request.uri.path); see /openapi.json"
                : (error.body ?? "\(error.status.reasonPhrase)")
            return try APIError(status: error.status, code: "http", field: field, message: message)
                .response(from: request, context: context)
        } catch {
            // The details go to the log only, under an id the answer gives: an error's text can name paths, queries
            // or the database.
            let requestID = StoredKey.newID()
            context.logger.error(
                "request failed",
                metadata: [
                    "requestId": "\(requestID)", "route": "\(context.endpointPath ?? "-")", "error": "\(error)",
                ])
            var response = try APIError(
                status: .internalServerError, code: "internal", field: nil,
                message: "the server failed; its log has the details under request id \(requestID)"
            ).response(from: request, context: context)
            if let name = HTTPField.Name("X-Request-Id") { response.headers[name] = requestID }
            return response
        }
    }
}
