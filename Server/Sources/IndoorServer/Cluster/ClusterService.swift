import Foundation
import Logging
import ServiceLifecycle

/// An instance's work in its cluster, run beside the HTTP server: a round (``VenueHub/clusterRound()``) every
/// ``ClusterIdentity/roundSeconds`` and whenever another instance says a venue changed or was released; the live
/// streams' relay (``EventRelay``), woken by each commit's notification. Each round also reads the keys again (one
/// added on another instance works here from the next round). At graceful shutdown it gives up the leases
/// of the venues it runs, so the other instances take them over at once instead of after the lease expires.
struct ClusterService: Service {
    let hub: VenueHub
    let relay: EventRelay
    let keys: KeyRing
    let logger: Logger

    func run() async throws {
        guard let cluster = hub.cluster, let store = hub.clusterStore else { return }
        let (rounds, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    await store.listen { notice in
                        switch notice {
                        case .events: relay.wake()
                        case .message(let text):
                            // Another instance erased a device: so do the sessions running here, and the streams
                            // served here are told.
                            if let erasure = ClusterErasure(message: text) {
                                Task {
                                    await hub.eraseFromSessions(erasure.device, venue: erasure.venue)
                                    await hub.reconcileOccupancy(venue: erasure.venue)
                                    if let streamed = erasure.streamed { hub.erasures.publish(streamed) }
                                }
                            }
                            wake.yield()
                        case .reconnected:
                            relay.wake()
                            wake.yield()
                        }
                    }
                }
                group.addTask { await relay.run() }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(cluster.roundSeconds))
                        wake.yield()
                    }
                }
                group.addTask {
                    var failing = false
                    for await _ in rounds {
                        if Task.isCancelled { break }
                        do {
                            try await hub.clusterRound()
                            try await keys.reload()
                            if failing { logger.notice("cluster rounds work again") }
                            failing = false
                        } catch is CancellationError {
                            break
                        } catch {
                            if !failing { logger.error("cluster round failed", metadata: ["error": "\(error)"]) }
                            failing = true
                        }
                    }
                }
                wake.yield()
                await group.next()
                group.cancelAll()
            }
        }
        wake.finish()
        await hub.leaveCluster()
        relay.finish()
    }
}
