import IndoorSession

extension ServerEvent {
    /// The events of `events` that the server stores and streams: the session's fixes and zone events, in order
    /// (monitoring and peer events are the SDK's).
    package static func stored(from events: [SessionEvent]) -> [ServerEvent] {
        events.compactMap { event in
            switch event {
            case .fix(let fix): .fix(fix)
            case .zone(let zone): .zone(zone)
            case .monitor, .peer: nil
            }
        }
    }
}
