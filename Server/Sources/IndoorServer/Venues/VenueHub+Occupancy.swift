import IndoorGeofencing

extension VenueHub {
    /// The zones of venue `id` with how many are in each now, when the venue runs here (else `[]`).
    public func zoneStates(venue id: String) -> [ZoneOccupancyState] {
        registry.runtime(id)?.zoneStates ?? []
    }

    /// Brings the occupancy of the venues running here (all of them, or `venue` only) back to the store's open visits
    /// (``IngestPipeline/reconcileOccupancy(_:)``): after an erasure here or, in a cluster, on another instance. A
    /// venue that fails is logged, and the next one is tried.
    func reconcileOccupancy(venue: String?) async {
        for runtime in registry.all where venue == nil || runtime.venue.id == venue {
            do {
                try await pipeline.reconcileOccupancy(runtime)
            } catch {
                logger.warning(
                    "the occupancy of venue '\(runtime.venue.id)' could not be brought back to its open visits",
                    metadata: ["error": "\(error)"])
            }
        }
    }
}
