/// Why `indoor-bench mqtt-publish` could not read its sightings, reach the broker or read the server's counter.
struct MQTTPublishBenchError: Error, Sendable, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
