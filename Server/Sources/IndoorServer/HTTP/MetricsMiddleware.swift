import Dispatch
import Hummingbird

/// Counts every request answered in the metrics, with its latency, by method, route and status
/// (``ServerMetrics/recordRequest(method:route:status:nanoseconds:)``). Put before ``ErrorMiddleware``, so that an
/// error is counted with the status it is answered with.
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let start = DispatchTime.now().uptimeNanoseconds
        let response = try await next(request, context)
        let elapsed = Int64(DispatchTime.now().uptimeNanoseconds - start)
        metrics.recordRequest(
            method: request.method.rawValue, route: context.endpointPath ?? "unmatched", status: response.status.code,
            nanoseconds: elapsed)
        return response
    }
}
