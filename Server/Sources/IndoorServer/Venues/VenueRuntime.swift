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
        /// (``ZoneOccupancy/interleave(_:runtime:)``), devices grouped by the venue's persons, and brought back to the store after an erasure or stale visits
        /// closed (``IngestPipeline/reconcileOccupancy(_:)``).
        var occupancy = ZoneOccupancy()
        /// Where each of the venue's persons is: their devices' latest fixes (``PersonLocator``).
        var persons = PersonLocator(persons: [:])
    }

    let venue: Venue
    /// The venue's batches, ticks and replacement, one at a time.
    let jobs = SerialJobs()
    /// The ids of the venue's nodes.
    let nodeIDs: Set<String>
    /// The name of each of the venue's persons, by id.
    let personNames: [String: String]
    /// The devices of each of the venue's persons, by id.
    let personDevices: [String: [String]]
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
        personNames = Dictionary(venue.persons.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        personDevices = Dictionary(venue.persons.map { ($0.id, $0.devices) }, uniquingKeysWith: { first, _ in first })
        let persons = venue.personOfDevice
        let session = try LocationSession(SessionConfiguration(venue: venue, maximumDevices: maximumDevices))
        state = Mutex(
            State(
                session: session, survey: learnsSurvey ? .learning : .none,
                recent: learnsSurvey ? RecentSightings(window: 2 * session.configuration.positioning.window) : nil,
                occupancy: ZoneOccupancy(persons: persons), persons: PersonLocator(persons: persons)))
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

extension VenueRuntime {
    /// Follows the fixes of `stored` (just committed) and the devices `forgotten` (let go by the session) in the
    /// venue's persons' locations (``IndoorGeofencing/PersonLocator``): each person whose devices were among them,
    /// with where they are now, sorted by id. Empty for a venue without persons.
    func followPersons(_ stored: [StoredEvent], forgotten: [String] = []) -> [PersonUpdate] {
        guard !personNames.isEmpty else { return [] }
        return locked { state in
            var changed = Set<String>()
            for event in stored {
                guard case .fix(let fix) = event.event, let location = state.persons.update(fix) else { continue }
                changed.insert(location.person)
            }
            for device in forgotten {
                if let person = state.persons.forget(device: device) { changed.insert(person) }
            }
            return changed.sorted().map { personUpdate($0, state: state) }
        }
    }

    /// Every person of the venue with where they are now, in the venue's order.
    var personUpdates: [PersonUpdate] {
        locked { state in venue.persons.map { personUpdate($0.id, state: state) } }
    }

    private func personUpdate(_ person: String, state: State) -> PersonUpdate {
        let location = state.persons.location(of: person)
        // The zones occupied by the person, in the venue's order (most zones hold nobody: only those that do are read).
        let inside = state.occupancy.zones(of: person)
        return PersonUpdate(
            person: person, name: personNames[person] ?? person, devices: personDevices[person] ?? [],
            location: location, room: location.flatMap { room(of: $0.fix.device, session: state.session) },
            zones: inside.isEmpty ? [] : venue.zones.map(\.id).filter(inside.contains))
    }
}

/// A person of a venue and where they are now, as the live observers (the MQTT publisher) and the persons routes
/// get it.
public struct PersonUpdate: Hashable, Sendable {
    /// The person's id.
    public var person: String
    /// The person's name.
    public var name: String
    /// The person's devices, as the venue lists them.
    public var devices: [String]
    /// Where they are (``IndoorGeofencing/PersonLocator``): `nil` when none of their devices is held now.
    public var location: PersonLocation?
    /// The room the session holds the located device in.
    public var room: DeviceRoom?
    /// The ids of the zones the person is in now (a visit of one of their devices open), in the venue's order.
    public var zones: [String]
}
