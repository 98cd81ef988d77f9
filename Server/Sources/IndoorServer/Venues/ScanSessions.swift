import IndoorModel
import IndoorSession
import Synchronization

/// Each venue's scan session before any sighting (``IndoorSession/IndoorScan/session(venue:options:)``), made at its
/// first scan for the venue as it then was, and copied for every scan: what it learns is learned once. Until a venue's
/// survey is learned, its scans run without it; then ``SurveyLearning`` hands over a session made with it.
final class ScanSessions: Sendable {
    private struct Entry {
        /// The venue as the session was made for it.
        var venue: Venue
        var session: LocationSession
        /// Whether the session was made with the venue's survey.
        var learned: Bool
    }

    private let cache = Mutex<[String: Entry]>([:])

    /// No session yet.
    init() {}

    /// The session a scan of `venue` starts from, with the default options, over the venue's survey once it is
    /// learned (the device a scan locates does not change its session): made once per venue and copied for each
    /// scan; made afresh when the venue was replaced since.
    /// - Throws: ``IndoorSession/ScanError`` when the session cannot start.
    func session(venue: Venue) throws -> LocationSession {
        if let cached = cache.withLock({ $0[venue.id] }), cached.venue == venue { return cached.session }
        let session = try IndoorScan.session(venue: venue, options: IndoorScan.Options())
        cache.withLock { cached in
            // A learned session stored meanwhile stays.
            if let learned = cached[venue.id], learned.venue == venue, learned.learned { return }
            cached[venue.id] = Entry(venue: venue, session: session, learned: false)
        }
        return session
    }

    /// Makes `session`, made with `venue`'s survey, the one `venue`'s scans start from.
    func adopt(learned session: LocationSession, venue: Venue) {
        cache.withLock { $0[venue.id] = Entry(venue: venue, session: session, learned: true) }
    }

    /// Forgets venue `id`'s session (the venue was replaced or deleted).
    func forget(venue id: String) {
        cache.withLock { _ = $0.removeValue(forKey: id) }
    }
}
