/// What `indoor gateway` has done so far, for its status line and its last words.
struct GatewayCounters: Hashable, Sendable {
    /// Sightings decoded from the input.
    var read = 0
    /// Sightings acknowledged by the server or broker.
    var sent = 0
    /// Sightings the server refused one by one in an acknowledged batch (`errors` of a 200).
    var rejected = 0
    /// Sightings of batches refused for good (a 4xx other than 408/429).
    var refused = 0
    /// Sightings dropped because the queue was over its bound.
    var dropped = 0
    /// Non-beacon advertisements from random addresses no key resolved.
    var unresolved = 0

    /// `read 120, sent 100, queued 20 (1 batch, 3 KB), rejected 0, refused 0, dropped 0, unresolved 0`.
    func line(queuedSightings: Int, queuedBatches: Int, queuedBytes: Int) -> String {
        "read \(read), sent \(sent), queued \(queuedSightings) (\(queuedBatches) batch"
            + "\(queuedBatches == 1 ? "" : "es"), \((queuedBytes + 1023) / 1024) KB), rejected \(rejected), "
            + "refused \(refused), dropped \(dropped), unresolved \(unresolved)"
    }
}
