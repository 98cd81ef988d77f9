/// A broker URL that `MQTTURL` refuses, with the reason and the accepted form.
public struct MQTTURLError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
