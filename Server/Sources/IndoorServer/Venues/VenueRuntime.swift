import IndoorGeofencing
import IndoorModel
import IndoorSession
import Synchronization

/// One venue run here: its session and what goes with it (its present, devices, survey state), its jobs, the batches
/// waiting for its next ingest job (``IngestPipeline``) and its stream subscribers.
final class VenueRuntime: Sendable {
    struct State: Sendable {
        var session: LocationSession
        /// The venue's survey, learned in the background.
        var survey: SurveyState
        /// What the learned survey's validation found; `nil` before it is learned, and without a survey.
        var validation: SurveyValidation?
        /// While the survey is learned: the sightings of twice the positioning window before the latest, which the
        /// learned positioning hears before it takes over.
        var recent: RecentSightings?
        /// The latest data time seen, seconds.
        var lastDataTime: Double?
        /// Wall-clock time of the latest sighting, seconds since 1970.
        var lastArrival: Double?
        /// What the venue's times count, set by the first sighting it takes.
        var timeBase: SightingTimeWindow.Base?
        /// Replaced by a runtime of the venue's new version, which carried this one's visits over: takes nothing more.
        var retired = false
        /// Who is in each zone: the store's open visits of the venue, followed through every event committed
        /// (``ZoneOccupancy/interleave(_:venue:)``) and brought back to the store after an erasure or stale visits
        /// closed (``IngestPipeline/reconcileOccupancy(_:)``).
        var occupancy = ZoneOccupancy()
    }

    let venue: Venue
    /// The venue's batches, ticks and replacement, one at a time.
    let jobs = SerialJobs()
    /// The ids of the venue's nodes.
    let nodeIDs: Set<String>
    /// In a cluster, the lease under which this instance runs the venue (every commit is fenced by it).
    let lease: VenueLease?
    private let state: Mutex<State>
    /// The venue's live stream subscribers (``VenueHub/subscribe(venue:)``).
    let subscribers = SubscriberTable<LiveEvent>()
    /// Batches given to ``VenueHub/admit(venue:sightings:)`` that no ingest job has taken yet, in the order given.
    private let waiting = Mutex<[WaitingBatch]>([])

    /// A batch of sightings waiting for the venue's next ingest job, and its answer once a job has taken it.
    final class WaitingBatch: Sendable {
        let sightings: [Sighting]
        private let result = Mutex<Result<VenueHub.Admission?, any Error>?>(nil)

        init(_ sightings: [Sighting]) { self.sightings = sightings }

        /// What the job that took the batch answered (`nil` until one has): the admission, `nil` when the venue's
        /// runtime was retired, or the commit's error.
        var answer: Result<VenueHub.Admission?, any Error>? {
            get { result.withLock { $0 } }
            set { result.withLock { $0 = newValue } }
        }
    }

    /// How many batches wait for the venue's next ingest job.
    var waitingCount: Int { waiting.withLock { $0.count } }

    /// Puts `batch` in line for the venue's next ingest job.
    func wait(_ batch: WaitingBatch) { waiting.withLock { $0.append(batch) } }

    /// Every batch waiting, in the order given; none wait after this.
    func takeWaiting() -> [WaitingBatch] {
        waiting.withLock { waiting in
            defer { waiting.removeAll() }
            return waiting
        }
    }

    /// A runtime over `venue`, its session without a survey; with `learnsSurvey`, it keeps the recent sightings
    /// until the hub hands it the positioning learned from the venue's survey. Its session holds at most
    /// `maximumDevices` devices at once (`SessionConfiguration.maximumDevices`: beyond it, the one silent longest
    /// is let go).
    init(
        venue: Venue, learnsSurvey: Bool, maximumDevices: Int = SessionConfiguration.defaultMaximumDevices,
        lease: VenueLease? = nil
    ) throws {
        self.venue = venue
        self.lease = lease
        nodeIDs = Set(venue.nodes.map(\.id))
        let session = try LocationSession(SessionConfiguration(venue: venue, maximumDevices: maximumDevices))
        state = Mutex(
            State(
                session: session, survey: learnsSurvey ? .learning : .none,
                recent: learnsSurvey ? RecentSightings(window: 2 * session.configuration.positioning.window) : nil))
    }

    var deviceCount: Int { state.withLock { $0.session.heldDevices } }

    /// Why the venue cannot take `sighting` whatever its time: a node it does not have, a device id longer than
    /// ``VenueHub/maximumIDLength``; `nil` when it can.
    func problem(with sighting: Sighting) -> (field: String, message: String)? {
        if sighting.device.count > VenueHub.maximumIDLength {
            return (
                "device",
                "the device id is \(sighting.device.count) characters long; ids have at most \(VenueHub.maximumIDLength)"
            )
        }
        if case .node(let node) = sighting.source, !nodeIDs.contains(node) {
            let known = venue.nodes.prefix(10).map(\.id).joined(separator: ", ")
            let more = venue.nodes.count > 10 ? ", …" : ""
            return ("node", "node '\(node)' is not a node of venue '\(venue.id)' (its nodes: \(known)\(more))")
        }
        return nil
    }

    func locked<T>(_ body: (inout State) throws -> T) rethrows -> T {
        try state.withLock { try body(&$0) }
    }

    /// Each of the venue's zones, in the venue's order, with how many are in it now.
    var zoneStates: [ZoneOccupancyState] {
        let occupancy = locked { $0.occupancy }
        return venue.zones.map { ZoneOccupancyState(zone: $0.id, name: $0.name, count: occupancy.count(of: $0.id)) }
    }

    /// The name of each of the venue's zones, by id.
    var zoneNames: [String: String] {
        Dictionary(venue.zones.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    /// The room `device` is in as `session` holds it, in the API's form (`nil`: none, or a venue without rooms).
    func room(of device: String, session: LocationSession) -> DeviceRoom? {
        session.room(of: device).flatMap { DeviceRoom($0, zones: venue.zones) }
    }

    /// `stored` as live events: each device's last fix of the batch and each zone event carry the device's room from
    /// `rooms`, taken right after the batch went through the session (the session's room of a device changes only
    /// with its fixes, so for the last fix that is the room after it).
    func live(_ stored: [StoredEvent], rooms: [String: DeviceRoom]) -> [LiveEvent] {
        LiveEvent.withRooms(stored) { rooms[$0] }
    }
}
