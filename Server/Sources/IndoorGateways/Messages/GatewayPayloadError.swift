/// A gateway message that cannot be read: why (a label for metrics), and a message naming the topic and the
/// JSON field or byte offset.
public struct GatewayPayloadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why a message was refused; the raw value is meant as a metrics label.
    public enum Reason: String, Hashable, Sendable, CaseIterable {
        /// The payload is not JSON (or nests deeper than a gateway's messages ever do).
        case notJSON
        /// A field, or the payload itself, has the wrong JSON type (`rssi: true`, an array instead of an object).
        case wrongType
        /// A required field is absent.
        case missingField
        /// A hex field has an odd number of digits or a character that is not a hex digit.
        case badHex
        /// The payload or the topic is over the configured size.
        case tooLarge
        /// A value is outside what it can be: an RSSI or tx power outside the physical ranges, a major over
        /// 65535, a status other than `online` / `offline`, an empty or over-long id.
        case outOfRange
        /// The advertiser uses a private random address that no identity resolving key resolves: it cannot be
        /// followed, so the sighting is counted and dropped.
        case randomAddress
        /// The topic is under none of the configured roots.
        case unknownTopic
    }

    /// Why, as a metrics label.
    public var reason: Reason
    /// The MQTT topic of the message.
    public var topic: String
    /// The JSON field at fault (`rssi`, `manufacturerdata`), or nil for the payload or the topic as a whole.
    public var field: String?
    /// One line naming the topic and the field, such as
    /// `espresense/devices/phone/kitchen: rssi is a boolean; expected a number of dBm`.
    public var message: String

    /// An error about `field` (nil: the whole payload or topic) of the message on `topic`; `detail` says what is
    /// wrong and is prefixed with the topic.
    public init(_ reason: Reason, topic: String, field: String?, detail: String) {
        self.reason = reason
        self.topic = topic
        self.field = field
        self.message = "\(topic): \(detail)"
    }

    public var description: String { message }
}
