/// The checks every node and device id passes: not empty, at most 128 characters (the server's limit).
enum GatewayID {
    /// The most characters of a device or node id.
    static let maximumLength = 128

    /// `text` when it can be an id, else an `outOfRange` error naming `what` (`node`, `device`).
    static func checked(_ text: String, _ what: String, topic: String, field: String?) throws(GatewayPayloadError)
        -> String
    {
        guard !text.isEmpty else {
            throw GatewayPayloadError(.outOfRange, topic: topic, field: field, detail: "the \(what) id is empty")
        }
        guard text.count <= maximumLength else {
            throw GatewayPayloadError(
                .outOfRange, topic: topic, field: field,
                detail: "the \(what) id has \(text.count) characters; at most \(maximumLength) are taken")
        }
        return text
    }
}
