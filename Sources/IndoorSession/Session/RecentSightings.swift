import IndoorModel

/// The sightings of the last few seconds of data time, kept while a session's positioning is being learned from a
/// survey, so that the learned positioning starts from the readings the old one had
/// (``LocationSession/adoptPositioning(of:replaying:)``; ``LocationSessionRunner/learn(survey:)`` and the server keep
/// one).
///
/// Bounded: sightings more than ``window`` seconds older than the latest are dropped, and at most ``capacity`` are
/// kept (the oldest go first).
public struct RecentSightings: Sendable {
    /// Seconds of data time kept before the latest sighting.
    public let window: Double
    /// The most sightings kept.
    public let capacity: Int
    private var kept: [Sighting] = []
    /// How many were kept after the last trim.
    private var trimmed = 0
    /// The latest data time seen, seconds.
    private var latest = -Double.infinity

    /// Keeps `window` seconds (5 when not a positive number) and at most `capacity` sightings.
    public init(window: Double, capacity: Int = 100_000) {
        self.window = window.isFinite && window > 0 ? window : 5
        self.capacity = max(1, capacity)
    }

    /// The sightings of the last ``window`` seconds before the latest (at most ``capacity``), in the order they came.
    public var sightings: [Sighting] {
        let cutoff = latest - window
        return Array(kept.filter { $0.time >= cutoff }.suffix(capacity))
    }

    /// Keeps `batch`; drops what is too old or too many once the buffer has doubled since it was last trimmed (so each
    /// sighting is copied a bounded number of times).
    public mutating func append(contentsOf batch: [Sighting]) {
        for sighting in batch { append(sighting) }
    }

    /// Keeps `sighting` (one of a non-finite time is left out), then drops what is too old or too many, as
    /// ``append(contentsOf:)`` does.
    public mutating func append(_ sighting: Sighting) {
        guard sighting.time.isFinite else { return }
        latest = max(latest, sighting.time)
        kept.append(sighting)
        guard kept.count >= 2 * max(trimmed, 1024) || kept.count > 2 * capacity else { return }
        let cutoff = latest - window
        kept.removeAll { $0.time < cutoff }
        if kept.count > capacity { kept.removeFirst(kept.count - capacity) }
        trimmed = kept.count
    }

    /// Drops every sighting of `device` (its data erased on request).
    /// - Returns: How many were dropped.
    @discardableResult
    public mutating func erase(device: String) -> Int {
        let count = kept.count
        kept.removeAll { $0.device == device }
        trimmed = min(trimmed, kept.count)
        return count - kept.count
    }
}
