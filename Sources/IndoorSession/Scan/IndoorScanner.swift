import IndoorModel

/// Answers indoor scans over one source of sightings: `scan(geofence:duration:knownLocation:)`.
///
/// ```swift
/// let scanner = IndoorScanner(venues: [venue]) { radio.sightings() }  // any AsyncSequence of Sighting
/// let result = try await scanner.scan(geofence: "hq-building-a", duration: .seconds(10))
/// print(result.json())  // {"accuracy":1.8,"beacons":6,"confidence":0.7,...}
/// ```
///
/// Each scan runs its own ``IndoorScan`` (a ``LocationSession`` with a tracked method) over the venue that serves
/// the geofence (``ScanTarget``). Scans may overlap: they share one subscription to the source (the radio is
/// started once, for the first, and stopped when the last ends), and each receives the sightings from the moment
/// it starts.
///
/// **Time.** A scan's duration is measured on the sightings' clock (data time): a recorded or simulated source gives
/// the same answer every run. A scan also ends when the source ends. Only the live path needs a real clock: given
/// one (`clock:`), a scan also ends when that clock's duration has passed, answering with what it has (a radio that
/// hears nothing would otherwise never end a scan). Tests inject a manual clock or none.
public actor IndoorScanner {
    /// The venues whose geofences the scanner serves.
    public nonisolated let venues: [Venue]
    /// How each scan positions.
    public nonisolated let options: IndoorScan.Options
    /// What the user and the system allow; a scan needs ``LocationAuthorization/allowsScanning``.
    public private(set) var authorization: LocationAuthorization
    private let fanOut: SightingFanOut
    private let clock: (any Clock<Duration>)?
    /// The fan-out subscriptions of the scans running now.
    private var running: Set<Int> = []
    /// Each venue's scan session before any sighting, made at its first scan and copied for every scan after: what
    /// it learns from a survey (``IndoorScan/Options/surveys``) is learned once.
    private var sessions: [String: LocationSession] = [:]

    /// A scanner over the sightings of the sequences `source` makes (one per opening of the radio).
    ///
    /// - Parameters:
    ///   - venues: The venues, with the geofence ids each serves.
    ///   - options: Method, tracking, the fewest beacons for an answer, the device to locate.
    ///   - authorization: What is allowed now (default `whenInUse`: a gateway, a replay, a test).
    ///   - clock: The live clock that also ends a scan after its duration; `nil` (default) for data time only.
    ///   - source: Makes a new sequence of sightings each time the radio is opened.
    public init<S: AsyncSequence & Sendable>(
        venues: [Venue], options: IndoorScan.Options = IndoorScan.Options(),
        authorization: LocationAuthorization = .whenInUse, clock: (any Clock<Duration>)? = nil,
        source: @escaping @Sendable () -> S
    ) where S.Element == Sighting {
        self.venues = venues
        self.options = options
        self.authorization = authorization
        self.clock = clock
        self.fanOut = SightingFanOut(source)
    }

    /// Makes every venue's scan session now, learning what ``options`` give it to learn (its survey: seconds each), so
    /// that no scan waits for it; a scan that comes first makes its venue's session itself, as without this call.
    ///
    /// The learning runs off the scanner (scans may run meanwhile), one venue after the other; call it at launch,
    /// from a task of low priority. Venues whose session is already made are skipped.
    /// - Throws: ``ScanError`` (`invalidRequest`) for a venue the options' method cannot run; the venues before it are
    ///   prepared.
    public func prepare() async throws {
        for venue in venues where sessions[venue.id] == nil {
            let options = self.options
            let session = try await Task.detached(priority: .utility) {
                try IndoorScan.session(venue: venue, options: options)
            }.value
            if sessions[venue.id] == nil { sessions[venue.id] = session }
        }
    }

    /// Whether `venue`'s scan session is made (by ``prepare()`` or a first scan of it).
    public func isPrepared(venue id: String) -> Bool { sessions[id] != nil }

    /// How many times the source has been opened (one opening serves all the scans that overlap).
    public var sourceOpenings: Int { get async { await fanOut.openings } }

    /// How many scans are listening now.
    public var activeScans: Int { running.count }

    /// Scans `geofence` for `duration` and answers with the best estimate at the end.
    ///
    /// - Parameters:
    ///   - geofence: A geofence id one of ``venues`` declares.
    ///   - duration: How long to listen, on the sightings' clock (and on the live clock, when there is one);
    ///     typically 5 to 15 s: shorter is faster, longer is more accurate (docs/SCAN.md).
    ///   - knownLocation: The device's last known location: chooses the venue when several serve the geofence, and
    ///     seeds the position when it is inside the venue.
    /// - Returns: The result; ``ScanResult/json()`` is the provider's answer.
    /// - Throws: ``ScanError``: `notAuthorized`, `unknownGeofence`, `invalidRequest`, `nothingHeard`,
    ///   `tooFewBeacons`, `cancelled` (the calling task was cancelled), `sourceFailed`.
    public func scan(geofence: String, duration: Duration, knownLocation: DeviceLocation? = nil) async throws
        -> ScanResult
    {
        guard authorization.allowsScanning else { throw ScanError.notAuthorized }
        let target = try ScanTarget(geofence: geofence, venues: venues, knownLocation: knownLocation)
        let session = try sessions[target.venue.id] ?? IndoorScan.session(venue: target.venue, options: options)
        sessions[target.venue.id] = session
        var scan = try IndoorScan(
            target: target, duration: Self.seconds(duration), knownLocation: knownLocation, options: options,
            session: session)
        guard !Task.isCancelled else { throw ScanError.cancelled }
        let (id, sightings) = await fanOut.subscribe()
        running.insert(id)
        let deadline = clock.map { clock in
            Task { [fanOut] in
                do {
                    try await clock.sleep(for: duration)
                } catch {
                    return
                }
                await fanOut.end(id)
            }
        }
        var failure: (any Error)?
        do {
            for try await sighting in sightings where scan.ingest(sighting) {
                break
            }
        } catch {
            failure = error
        }
        deadline?.cancel()
        running.remove(id)
        await fanOut.end(id)
        if Task.isCancelled { throw ScanError.cancelled }
        if let failure {
            throw failure as? ScanError ?? ScanError(.sourceFailed, "the source of sightings failed: \(failure)")
        }
        scan.finish()
        return try scan.result().get()
    }

    /// The authorisation changed (an adapter reports it): without ``LocationAuthorization/allowsScanning``, the
    /// scans running now fail with `notAuthorized`, and so do new ones until it is granted again.
    public func setAuthorization(_ authorization: LocationAuthorization) async {
        self.authorization = authorization
        guard !authorization.allowsScanning else { return }
        for id in running {
            await fanOut.end(id, throwing: ScanError.notAuthorized)
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
