import Foundation
import IndoorModel
import Logging
import ServiceLifecycle

/// The server's clockwork, run beside the HTTP server in one service group: once per `tick` it moves quiet
/// venues on in data time (check-outs of devices no longer heard) and, with a demo, feeds the demo walkers'
/// sightings due by now through the same ingest as `POST /v1/sightings`; at its start and then once a minute it
/// deletes the sightings, events and visits older than `retention` says (``VenueHub/prune(_:batch:)``). At graceful
/// shutdown it stops and ends the live streams, so that the HTTP server can drain.
public struct HubService: Service {
    let hub: VenueHub
    let demo: DemoVenue?
    let tick: Duration
    let logger: Logger
    /// How long sightings, events and visits are kept.
    let retention: Retention
    /// Time between two rounds of retention.
    let pruneEvery: Duration

    /// A service over `hub`, feeding `demo` when given, keeping what `retention` says.
    public init(
        hub: VenueHub, demo: DemoVenue? = nil, tick: Duration = .milliseconds(500),
        retention: Retention = Retention(), pruneEvery: Duration = .seconds(60),
        logger: Logger
    ) {
        self.hub = hub
        self.demo = demo
        self.tick = tick
        self.retention = retention
        self.pruneEvery = pruneEvery
        self.logger = logger
    }

    public func run() async throws {
        let start = ContinuousClock.now
        await cancelWhenGracefulShutdown {
            var driver = DemoDriver(demo: demo)
            var lastPrune: ContinuousClock.Instant?
            while !Task.isCancelled {
                if lastPrune.map({ ContinuousClock.now - $0 >= pruneEvery }) ?? true {
                    lastPrune = ContinuousClock.now
                    do {
                        let pruned = try await hub.prune(retention)
                        if !pruned.isEmpty {
                            let counts =
                                "\(pruned.sightings) sightings, \(pruned.events) events, \(pruned.visits) visits, "
                                + "\(pruned.audit) audit entries"
                            logger.info("retention deleted \(counts)")
                        }
                    } catch {
                        logger.error("retention failed", metadata: ["error": "\(error)"])
                    }
                }
                try? await Task.sleep(for: tick)
                let elapsed = ContinuousClock.now - start
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                if let batch = driver.due(at: seconds), let demo {
                    do {
                        _ = try await hub.ingest(venue: demo.venue.id, sightings: batch)
                    } catch {
                        logger.error("demo ingest failed", metadata: ["error": "\(error)"])
                    }
                }
                do {
                    try await hub.tick()
                } catch {
                    logger.error("tick failed", metadata: ["error": "\(error)"])
                }
            }
        }
        hub.finishSubscribers()
    }
}

/// The demo's pacing: data time follows the wall clock; the walk starts again (times shifted by its duration)
/// when it ends.
struct DemoDriver: Sendable {
    let demo: DemoVenue?
    var index = 0
    var lap = 0

    /// The sightings due by `seconds` since the start that were not given yet; `nil` when none.
    mutating func due(at seconds: Double) -> [Sighting]? {
        guard let demo, !demo.sightings.isEmpty, demo.duration > 0 else { return nil }
        var batch: [Sighting] = []
        while true {
            if index == demo.sightings.count {
                index = 0
                lap += 1
            }
            var sighting = demo.sightings[index]
            sighting.time += Double(lap) * demo.duration
            guard sighting.time <= seconds else { break }
            batch.append(sighting)
            index += 1
        }
        return batch.isEmpty ? nil : batch
    }
}
