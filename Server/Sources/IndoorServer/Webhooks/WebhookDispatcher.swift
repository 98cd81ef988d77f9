import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Synchronization

/// Delivers the stored events to the webhooks, beside the HTTP server in its service group (docs/WEBHOOKS.md).
///
/// A round every ``WebhookSettings/pollSeconds`` reads the hooks, takes or renews the lease of each enabled hook this
/// instance delivers (in a cluster, the hooks are spread over the live instances as venues are, ``VenuePlacement``;
/// alone, every hook) and runs one task per hook held. A hook's task reads its next batch after its cursors
/// (``WebhookBatch``), POSTs it signed (``WebhookSignature``), and moves the cursors only after a 2xx: delivery is at
/// least once, in event order, and a restart or another instance resumes from the stored cursors. A failure is
/// retried with exponential backoff and jitter (``WebhookBackoff``); a hook failing for
/// ``WebhookSettings/disableAfterSeconds`` is disabled with the reason. Each hook waits on its own target only: a
/// slow or dead one slows neither ingest (which only commits events) nor the other hooks.
public final class WebhookDispatcher: Service, Sendable {
    private let store: any LocationStore
    private let settings: WebhookSettings
    /// This instance's id in the leases (`--instance` in a cluster, `local` alone).
    private let instance: String
    /// The live instances' ids, in a cluster (``VenueHub/clusterState``); `nil` alone.
    private let members: @Sendable () -> [String]?
    private let backoff: WebhookBackoff
    private let logger: Logger
    /// The task of each hook delivered here.
    private let running = Mutex<[String: Delivering]>([:])

    /// A hook's delivery task, the token by which the task, as it ends, removes itself and not a successor, and
    /// when its lease was last renewed.
    private struct Delivering {
        var token: UUID
        var task: Task<Void, Never>
        var renewed: ContinuousClock.Instant
    }

    /// What the deliveries are counted in (`indoor_webhook_*`, ``WebhookMetrics``).
    let metrics: WebhookMetrics

    /// A dispatcher over `store`.
    public init(
        store: any LocationStore, settings: WebhookSettings, instance: String = "local",
        members: @escaping @Sendable () -> [String]? = { nil }, logger: Logger,
        metrics: WebhookMetrics = WebhookMetrics()
    ) {
        self.metrics = metrics
        self.store = store
        self.settings = settings
        self.instance = instance
        self.members = members
        self.logger = logger
        backoff = WebhookBackoff(
            base: settings.retryBaseSeconds, maximum: settings.retryMaxSeconds,
            seed: settings.jitterSeed ?? UInt64.random(in: 0...UInt64.max))
    }

    /// The HTTP client of the deliveries: no redirects followed, no decompression, the timeout of the settings.
    private static func client(_ settings: WebhookSettings) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(
                connect: .milliseconds(Int64(settings.timeoutSeconds * 1000)),
                read: .milliseconds(Int64(settings.timeoutSeconds * 1000))))
        configuration.decompression = .disabled
        configuration.httpVersion = .http1Only
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Runs rounds until graceful shutdown or cancellation, then stops every hook's task and gives their leases up.
    public func run() async throws {
        let client = Self.client(settings)
        await cancelWhenGracefulShutdown {
            var failing = false
            while !Task.isCancelled {
                do {
                    try await self.round(client: client)
                    if failing { self.logger.notice("webhook rounds work again") }
                    failing = false
                } catch is CancellationError {
                    break
                } catch {
                    if !failing { self.logger.error("webhook round failed", metadata: ["error": "\(error)"]) }
                    failing = true
                }
                try? await Task.sleep(for: .seconds(self.settings.pollSeconds))
            }
        }
        await stopAll()
        try? await client.shutdown()
    }

    /// Stops every hook's task and gives its lease up.
    func stopAll() async {
        let tasks = running.withLock { running in
            defer { running = [:] }
            return running
        }
        for (id, running) in tasks {
            running.task.cancel()
            await running.task.value
            try? await store.releaseWebhook(id: id, owner: instance)
        }
    }

    /// One round: the hooks delivered here are started (delivering through `client`), renewed or stopped.
    func round(client: HTTPClient) async throws {
        let hooks = try await store.webhooks().filter { $0.disabledReason == nil }
        let ids = Set(hooks.map(\.id))
        let placement = members().map { VenuePlacement.owners(venues: Array(ids), members: $0) }
        for (id, delivering) in running.withLock({ $0 }) where !ids.contains(id) {
            delivering.task.cancel()
            running.withLock { _ = $0.removeValue(forKey: id) }
        }
        let now = ContinuousClock.now
        for hook in hooks {
            let renewed = running.withLock { $0[hook.id]?.renewed }
            let isRunning = renewed != nil
            if let placement, let placed = placement[hook.id], placed != instance {
                if isRunning { await stop(hook.id) }
                continue
            }
            // A lease held is renewed once a third of it has passed: no write per hook and round.
            if let renewed, now - renewed < .seconds(settings.leaseSeconds / 3) { continue }
            let held = try await store.claimWebhook(id: hook.id, owner: instance, seconds: settings.leaseSeconds)
            if held && !isRunning {
                let id = hook.id
                let token = UUID()
                running.withLock {
                    $0[id] = Delivering(
                        token: token, task: Task { await self.deliver(hook: id, token: token, client: client) },
                        renewed: now)
                }
            } else if held {
                running.withLock { $0[hook.id]?.renewed = now }
            } else if isRunning {
                running.withLock { $0.removeValue(forKey: hook.id) }?.task.cancel()
            }
        }
    }

    private func stop(_ id: String) async {
        guard let delivering = running.withLock({ $0.removeValue(forKey: id) }) else { return }
        delivering.task.cancel()
        await delivering.task.value
        try? await store.releaseWebhook(id: id, owner: instance)
    }

    /// The hook's delivery loop, until it is cancelled, deleted, disabled or delivered by another instance.
    private func deliver(hook id: String, token: UUID, client: HTTPClient) async {
        var attempt = 0
        while !Task.isCancelled {
            do {
                guard let hook = try await store.webhook(id: id), hook.disabledReason == nil else { break }
                let batch = try await WebhookBatch.next(for: hook, store: store, maxEvents: settings.maxBatchEvents)
                if batch.isEmpty {
                    try await Task.sleep(for: .seconds(settings.pollSeconds))
                    continue
                }
                if batch.events.isEmpty {
                    guard try await store.advanceWebhook(id: id, cursors: batch.cursors, owner: instance) else { break }
                    continue
                }
                // A batch once sent is waited for (at most the request's timeout) even when the dispatcher is
                // stopping meanwhile, and what the target answered is written (tasks of their own, not cancelled with
                // this one): a batch the target acknowledged is not delivered again after a graceful restart.
                let delivery = await Task { await self.post(batch, to: hook, client: client) }.value
                let store = store
                let settings = settings
                let instance = instance
                let advanced = try await Task {
                    try await store.recordWebhookDelivery(delivery, keeping: settings.keptDeliveries)
                    guard delivery.delivered else { return false }
                    return try await store.advanceWebhook(id: id, cursors: batch.cursors, owner: instance)
                }.value
                metrics.record(delivery, events: batch.events.count)
                if delivery.delivered {
                    guard advanced else { break }
                    attempt = 0
                    continue
                }
                let since = hook.failingSince ?? delivery.time
                var reason: String?
                if delivery.time + delivery.durationSeconds - since >= settings.disableAfterSeconds {
                    reason =
                        "disabled after failing for \(String(format: "%g", settings.disableAfterSeconds)) s "
                        + "(--webhook-disable-after); last attempt: \(delivery.error ?? "no answer")"
                    logger.warning("webhook '\(id)' \(reason ?? "")")
                    metrics.disabled.increment()
                }
                try await store.markWebhookFailing(id: id, failingSince: since, disabledReason: reason)
                if reason != nil { break }
                try await Task.sleep(for: .seconds(backoff.delay(attempt: attempt)))
                attempt += 1
            } catch is CancellationError {
                break
            } catch {
                logger.warning("webhook '\(id)': \(error)")
                try? await Task.sleep(for: .seconds(backoff.delay(attempt: attempt)))
                attempt += 1
            }
        }
        running.withLock { running in
            if running[id]?.token == token { running.removeValue(forKey: id) }
        }
    }

    /// POSTs `batch` to `hook`'s target, signed, within the timeout; reads at most
    /// ``WebhookSettings/maxResponseBytes`` of the answer.
    /// - Returns: The attempt.
    func post(_ batch: WebhookBatch, to hook: StoredWebhook, client: HTTPClient) async -> WebhookDelivery {
        let started = Date().timeIntervalSince1970
        let clock = ContinuousClock()
        let start = clock.now
        var status: Int?
        var failure: String?
        do {
            _ = try await WebhookTarget.check(hook.url, allowPrivate: settings.allowPrivate)
            let body = try WebhookBatch.body(hook: hook.id, events: batch.events)
            let timestamp = Int64(started)
            var request = HTTPClientRequest(url: hook.url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "User-Agent", value: "indoor-webhooks/1")
            request.headers.add(name: WebhookSignature.idHeader, value: hook.id)
            request.headers.add(name: WebhookSignature.timestampHeader, value: String(timestamp))
            request.headers.add(
                name: WebhookSignature.signatureHeader,
                value: WebhookSignature.sign(body: body, timestamp: timestamp, secret: hook.secret))
            request.body = .bytes(ByteBuffer(data: body))
            let response = try await client.execute(
                request, timeout: .milliseconds(Int64(settings.timeoutSeconds * 1000)))
            status = Int(response.status.code)
            var read = 0
            for try await chunk in response.body {
                read += chunk.readableBytes
                if read >= settings.maxResponseBytes { break }
            }
            if let code = status, !(200..<300).contains(code) {
                failure = "the target answered \(code)"
            }
        } catch let refusal as WebhookTarget.Refusal {
            failure = refusal.message
        } catch {
            failure = "\(error)"
        }
        return WebhookDelivery(
            hook: hook.id, time: started, status: status, error: failure, firstEvent: batch.events.first?.id ?? 0,
            lastEvent: batch.events.last?.id ?? 0, events: batch.events.count,
            durationSeconds: Self.seconds(clock.now - start))
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
