import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends batches to a location server: `POST /v1/sightings` with the venue and the ingest key.
///
/// Answers (docs/SERVER.md): 2xx → delivered (items the server refused one by one are in `errors`, counted as
/// rejected); 408, 429, 5xx and no answer → retry later; 401/403 (the key) and 404 (the venue) → retry later too,
/// since the batch is good and the configuration can be fixed; any other 4xx (400 nothing taken, 413 too large)
/// → refused for good.
struct HTTPForwarder: SightingForwarder {
    /// The server's base address, `http(s)://host:port`.
    var server: URL
    /// The venue the sightings belong to.
    var venue: String
    /// The ingest key, sent as `Authorization: Bearer KEY`.
    var key: String?
    /// How long one request may take, seconds.
    var timeoutSeconds: Double = 15

    private struct Body: Encodable {
        var venue: String
        var sightings: [ForwardedSighting]
    }

    private struct Answer: Decodable {
        struct Problem: Decodable {
            var index: Int?
            var field: String?
            var message: String?
        }
        var rejected: Int?
        var errors: [Problem]?
    }

    private struct Refusal: Decodable {
        var field: String?
        var message: String?
    }

    /// `--server`'s text as a base address, or a one-line error naming the option.
    static func serverURL(_ text: String) throws(GatewayFailure) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw GatewayFailure("--server '\(text)' is not a server address: expected http(s)://host[:port]")
        }
        return url
    }

    func send(_ sightings: [ForwardedSighting]) async -> ForwardOutcome {
        var request = URLRequest(url: server.appendingPathComponent("v1/sightings"))
        request.httpMethod = "POST"
        request.timeoutInterval = timeoutSeconds
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        do {
            request.httpBody = try JSONEncoder().encode(Body(venue: venue, sightings: sightings))
        } catch {
            return .refused("the batch cannot be encoded: \(error)")
        }
        let answer: (Data, URLResponse)
        do {
            answer = try await URLSession.shared.data(for: request)
        } catch {
            return .retry("\(server.absoluteString) cannot be reached: \(error.localizedDescription)")
        }
        let data = answer.0
        guard let status = (answer.1 as? HTTPURLResponse)?.statusCode else {
            return .retry("\(server.absoluteString) answered something other than HTTP")
        }
        switch status {
        case 200..<300:
            let parsed = try? JSONDecoder().decode(Answer.self, from: data)
            let first = parsed?.errors?.first.map { "\($0.field ?? "sightings"): \($0.message ?? "refused")" }
            return .delivered(rejected: parsed?.rejected ?? 0, firstProblem: first)
        case 408, 429, 500...:
            return .retry("\(server.absoluteString) answered \(status)")
        case 401, 403, 404:
            // The batch is good; the key or the venue is not (yet): kept and tried again while following, so fixing
            // the configuration loses nothing; at the end of the input, the run ends saying so.
            let refusal = try? JSONDecoder().decode(Refusal.self, from: data)
            let what = status == 404 ? "the venue '\(venue)'" : "the ingest key (INDOOR_INGEST_KEY)"
            return .turnedAway(
                "\(server.absoluteString) answered \(status) (\(refusal?.message ?? "")); check \(what); the batch is kept"
            )
        default:
            let refusal = try? JSONDecoder().decode(Refusal.self, from: data)
            var text = "\(server.absoluteString) refused the batch of \(sightings.count) sightings: \(status)"
            if let message = refusal?.message { text += " (\(refusal?.field.map { "\($0): " } ?? "")\(message))" }
            return .refused(text)
        }
    }

    func close() async {}
}
