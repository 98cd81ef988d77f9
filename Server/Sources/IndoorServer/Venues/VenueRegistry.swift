import IndoorModel
import Synchronization

/// The venues a hub knows: the runtime of each venue whose session runs here (``VenueRuntime``), and in a cluster
/// also every stored venue by id, those run elsewhere too (the catalog, as of the last cluster round or change).
///
/// Only bookkeeping: the registry reads and writes no store and runs no session. Each lookup takes the lock once, so
/// a runtime found may be replaced or removed right after; whoever acts on it checks ``isCurrent(_:)`` or the
/// runtime's `retired` flag under its own lock.
final class VenueRegistry: Sendable {
    /// Whether the hub is one instance of a cluster: then ``venueIDs`` and ``venue(id:)`` also answer from the catalog.
    let clustered: Bool
    private let runtimes: Mutex<[String: VenueRuntime]>
    private let catalog: Mutex<[String: Venue]>

    /// A registry running `runtimes` (by venue id), knowing `catalog` (by venue id; read only when `clustered`).
    init(clustered: Bool, runtimes: [String: VenueRuntime] = [:], catalog: [String: Venue] = [:]) {
        self.clustered = clustered
        self.runtimes = Mutex(runtimes)
        self.catalog = Mutex(catalog)
    }

    // MARK: Venues run here

    /// The runtime of venue `id`, when its session runs here.
    func runtime(_ id: String) -> VenueRuntime? { runtimes.withLock { $0[id] } }

    /// Every runtime, in no particular order.
    var all: [VenueRuntime] { runtimes.withLock { Array($0.values) } }

    /// The ids of the venues whose session runs here, sorted.
    var ownedVenueIDs: [String] { runtimes.withLock { $0.keys.sorted() } }

    /// Whether the session of venue `id` runs here.
    func owns(venue id: String) -> Bool { runtimes.withLock { $0[id] != nil } }

    /// Whether `runtime` still runs its venue: neither replaced nor removed since.
    func isCurrent(_ runtime: VenueRuntime) -> Bool {
        runtimes.withLock { $0[runtime.venue.id] === runtime }
    }

    /// Runs `runtime` for its venue, in place of any runtime the venue had.
    func run(_ runtime: VenueRuntime) {
        runtimes.withLock { $0[runtime.venue.id] = runtime }
    }

    /// Stops running venue `id` here.
    /// - Returns: The runtime it had, if any.
    @discardableResult
    func removeRuntime(venue id: String) -> VenueRuntime? {
        runtimes.withLock { $0.removeValue(forKey: id) }
    }

    /// Stops running `runtime`'s venue here, unless another runtime has replaced it meanwhile.
    func remove(_ runtime: VenueRuntime) {
        runtimes.withLock { runtimes in
            if runtimes[runtime.venue.id] === runtime { runtimes.removeValue(forKey: runtime.venue.id) }
        }
    }

    /// The ids of the venues run here that have a node `node`, sorted.
    func venues(withNode node: String) -> [String] {
        runtimes.withLock { runtimes in runtimes.values.filter { $0.nodeIDs.contains(node) }.map(\.venue.id) }.sorted()
    }

    /// The devices heard since each session started, summed over the venues run here.
    var deviceCount: Int { runtimes.withLock { $0.values.reduce(0) { $0 + $1.deviceCount } } }

    // MARK: Every venue known

    /// The ids of the venues served, sorted: in a cluster every stored venue's, wherever it runs.
    var venueIDs: [String] {
        if clustered { return catalog.withLock { $0.keys.sorted() } }
        return ownedVenueIDs
    }

    /// The venue `id`: the version run here, else in a cluster the catalog's; `nil` when unknown.
    func venue(id: String) -> Venue? {
        if let venue = runtimes.withLock({ $0[id]?.venue }) { return venue }
        guard clustered else { return nil }
        return catalog.withLock { $0[id] }
    }

    /// Whether venue `id` is known in the catalog (in a cluster: stored, wherever it runs).
    func catalogued(venue id: String) -> Bool { catalog.withLock { $0[id] != nil } }

    /// Puts `venue` in the catalog, in place of its earlier version.
    func catalogue(_ venue: Venue) { catalog.withLock { $0[venue.id] = venue } }

    /// Takes venue `id` out of the catalog.
    func uncatalogue(venue id: String) { catalog.withLock { _ = $0.removeValue(forKey: id) } }

    /// Makes `venues` (by id) the whole catalog.
    func replaceCatalog(_ venues: [String: Venue]) { catalog.withLock { $0 = venues } }
}
