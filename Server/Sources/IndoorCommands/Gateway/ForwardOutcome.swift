/// What became of one batch offered to the server or broker.
enum ForwardOutcome: Sendable, Equatable {
    /// Acknowledged (HTTP 2xx, or every message's PUBACK); `rejected` items were refused one by one by the server.
    case delivered(rejected: Int, firstProblem: String?)
    /// Refused for good (an HTTP 4xx other than 408 and 429): sending it again would not help.
    case refused(String)
    /// Not delivered now (no connection, a timeout, 408, 429, 5xx): try again later.
    case retry(String)
    /// Not delivered: the destination refuses this gateway itself (the broker refused its connection: credentials,
    /// authorisation, client id; the server answered 401, 403 or 404: the key, the venue). The batch stays queued;
    /// trying again helps only once that is put right.
    case turnedAway(String)
}

/// Where batches go: a server over HTTP or a broker over MQTT.
protocol SightingForwarder: Sendable {
    /// Sends one batch and says what became of it; never throws.
    func send(_ sightings: [ForwardedSighting]) async -> ForwardOutcome
    /// Ends the connection, after saying the node is going away where the protocol can.
    func close() async
}
