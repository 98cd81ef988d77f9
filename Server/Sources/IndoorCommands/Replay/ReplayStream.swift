import Foundation
import IndoorModel
import IndoorSession

/// A replay in progress: sightings go in one at a time, JSON Lines come out (see ``ReplayRun``).
///
/// Sightings pass through a ``ReplayReorderWindow`` before the session, so a file read as a stream replays as
/// if sorted when its disorder is within the window; memory stays bounded by the window, not the file.
public struct ReplayStream {
    private var session: LocationSession
    private let zones: [Zone]
    private var window: ReplayReorderWindow
    private let encoder = JSONFormat.encoder()
    /// The latest finite sighting time seen, seconds.
    private var end: Double?

    init(session: LocationSession, zones: [Zone], window: ReplayReorderWindow) {
        self.session = session
        self.zones = zones
        self.window = window
    }

    /// Takes one sighting; writes the lines of whatever the session did with the sightings the window let go.
    /// - Throws: Encoding errors.
    public mutating func ingest(_ sighting: Sighting, write: (String) -> Void) throws {
        if sighting.time.isFinite { end = max(end ?? sighting.time, sighting.time) }
        for ready in window.push(sighting) {
            // Ingest first, then write: `self.write(session.ingest(…))` holds a copy of `self` across the call,
            // so every mutation of the session's state copied its dictionaries (a quarter of replay's time).
            let events = session.ingest(ready)
            try self.write(events, to: write)
        }
    }

    /// Ends the replay: the sightings still in the window, the first fixes still waiting (made at the last time),
    /// then one `open` line per visit still open.
    /// - Returns: Counts for a one-line summary.
    /// - Throws: Encoding errors.
    public mutating func finish(write: (String) -> Void) throws -> ReplaySummary {
        for ready in window.drain() {
            // Ingest first, then write: `self.write(session.ingest(…))` holds a copy of `self` across the call,
            // so every mutation of the session's state copied its dictionaries (a quarter of replay's time).
            let events = session.ingest(ready)
            try self.write(events, to: write)
        }
        // A device first heard in the recording's last moment still gets its first fix, at the last time.
        if let end {
            let events = session.flushFirstFixes(at: end)
            try self.write(events, to: write)
        }
        var summary = ReplaySummary(session.statistics, fallbackMethod: session.fallbackMethod)
        summary.method = session.configuration.method.name
        summary.selfCalibration = session.selfCalibration
        summary.isSelfCalibrating = session.isSelfCalibrating
        summary.late = window.late
        summary.reorderWindow = window.seconds
        if let end {
            for visit in session.openVisits {
                let open = ReplayOpenVisit(visit, zones: zones, at: end)
                write(try line(ReplayLine(type: "zone", payload: open)))
                summary.openVisits += 1
            }
            summary.end = end
        }
        return summary
    }

    private func write(_ events: [SessionEvent], to write: (String) -> Void) throws {
        for event in events {
            switch event {
            case .fix(let fix): write(try line(ReplayLine(type: "fix", payload: fix)))
            case .zone(let zone): write(try line(ReplayLine(type: "zone", payload: zone)))
            case .monitor, .peer: break
            }
        }
    }

    private func line(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
