/// The names of the events a webhook can ask for: `fix`, and each zone event's kind (`checkIn`, `checkOut`,
/// `dwell`), `occupancy`, and a person's `personCheckIn` and `personCheckOut`. An event's name is its zone event's
/// kind for a zone event, a person event's kind for a person's, else its type
/// (``ServerEvent/type``), so a new kind of stored event is named by its type without a change here but for
/// ``known``.
public enum WebhookEvents {
    /// Every name a hook may ask for.
    public static let known: Set<String> = [
        "fix", "checkIn", "checkOut", "dwell", "occupancy", "personCheckIn", "personCheckOut",
    ]

    /// The name of `event`, as hooks filter on it.
    public static func name(of event: ServerEvent) -> String {
        switch event {
        case .zone(let zone): zone.kind.rawValue
        case .person(let person): person.kind.rawValue
        default: event.type
        }
    }
}
