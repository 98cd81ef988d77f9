/// A problem of `indoor gateway` worth one line on stderr: the input, the queue folder or the destination.
struct GatewayFailure: Error, CustomStringConvertible, Sendable {
    /// The line, naming the file, folder or option concerned.
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
