import IndoorModel
import IndoorSession

extension VenueHub {
    /// The session a scan of `venue` starts from, with the default options, over the venue's survey once it is
    /// learned (``surveys``, ``surveyState(venue:)``; the device a scan locates does not change its session): made
    /// once per venue and copied for each scan; made afresh when the venue was replaced since.
    /// - Throws: ``IndoorSession/ScanError`` when the session cannot start.
    public func scanSession(venue: Venue) throws -> LocationSession {
        if let cached = scanSessions.withLock({ $0[venue.id] }), cached.venue == venue { return cached.session }
        let session = try IndoorScan.session(venue: venue, options: IndoorScan.Options())
        scanSessions.withLock { cached in
            // A learned session stored meanwhile stays.
            if let learned = cached[venue.id], learned.venue == venue, learned.learned { return }
            cached[venue.id] = (venue, session, false)
        }
        return session
    }
}
