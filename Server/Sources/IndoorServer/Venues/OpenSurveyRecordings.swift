import IndoorModel
import Synchronization

/// The survey recordings running now, by venue and device (``VenueHub``'s survey routes keep it; the ingest pipeline
/// reads it): what the ingest of a batch copies to a recording without asking the store each time.
///
/// A venue's recordings are read from the store the first time its ingest asks (``open(venue:store:)``), then kept
/// up to date as recordings start and stop through this server.
final class OpenSurveyRecordings: Sendable {
    /// The open recording of each device, by venue; a venue absent has not been read yet.
    private let venues = Mutex<[String: [String: Int64]]>([:])

    /// The open recordings of `venue`, device → recording id, read from `store` the first time.
    /// - Throws: The store's error.
    func open(venue: String, store: any LocationStore) async throws -> [String: Int64] {
        if let known = venues.withLock({ $0[venue] }) { return known }
        var open: [String: Int64] = [:]
        for recording in try await store.surveyRecordings(venue: venue) where recording.isOpen {
            open[recording.device] = recording.id
        }
        let read = open
        return venues.withLock { venues in
            // Started or stopped through this server meanwhile: that is newer than what was read.
            if let known = venues[venue] { return known }
            venues[venue] = read
            return read
        }
    }

    /// Records that `device` has the open recording `id` in `venue` (`nil`: none any more), once the venue has been
    /// read (``open(venue:store:)``, which the hub calls first).
    func set(venue: String, device: String, recording id: Int64?) {
        venues.withLock { venues in
            if venues[venue] != nil { venues[venue]?[device] = id }
        }
    }

    /// Forgets what is known of `venue` (deleted, its survey replaced): read again when next asked.
    func forget(venue: String) {
        _ = venues.withLock { $0.removeValue(forKey: venue) }
    }

    /// Forgets every venue (a device's recordings were erased): read again when next asked.
    func forgetAll() {
        venues.withLock { $0.removeAll() }
    }
}
