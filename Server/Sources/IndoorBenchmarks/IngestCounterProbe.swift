import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads a running server's `indoor_sightings_ingested_total` from its `/metrics` (Prometheus text), for
/// `indoor-bench mqtt-publish` to see when every published sighting has been taken.
struct IngestCounterProbe: Sendable {
    /// The server's `/metrics` address.
    var url: URL
    /// A read key, sent as `Authorization: Bearer …` when given.
    var readKey: String?

    /// The probe of the server at `server` (`http://host:port`, with or without a trailing slash).
    ///
    /// - Throws: ``MQTTPublishBenchError`` when `server` is not an http(s) URL.
    init(server: String, readKey: String?) throws(MQTTPublishBenchError) {
        let base = server.hasSuffix("/") ? String(server.dropLast()) : server
        guard base.hasPrefix("http://") || base.hasPrefix("https://"), let url = URL(string: base + "/metrics") else {
            throw MQTTPublishBenchError("--server '\(server)' is not an http:// or https:// address")
        }
        self.url = url
        self.readKey = readKey
    }

    /// The counter now (sightings since the server started).
    ///
    /// - Throws: ``MQTTPublishBenchError`` when the server does not answer 200 or the counter is missing.
    func ingested() async throws -> Double {
        var request = URLRequest(url: url, timeoutInterval: 10)
        if let readKey { request.setValue("Bearer \(readKey)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw MQTTPublishBenchError("\(url) answered HTTP \(status)") }
        guard let value = Self.counter(in: String(decoding: data, as: UTF8.self)) else {
            throw MQTTPublishBenchError("\(url) has no indoor_sightings_ingested_total")
        }
        return value
    }

    /// The value of the unlabelled `indoor_sightings_ingested_total` line of a Prometheus text page.
    static func counter(in page: String) -> Double? {
        let name = "indoor_sightings_ingested_total"
        for line in page.split(separator: "\n") where line.hasPrefix(name + " ") {
            let fields = line.split(separator: " ")
            if fields.count >= 2, let value = Double(fields[1]) { return value }
        }
        return nil
    }
}
