import CoreMetrics
import Prometheus

/// What the webhooks' deliveries are counted in, on `/metrics`: `indoor_webhook_deliveries_total{result}` (each POST
/// of a batch: `delivered` when the target answered 2xx, else `failed`), `indoor_webhook_events_delivered_total` (the
/// events of the batches delivered; a batch delivered again after a crash counts again),
/// `indoor_webhook_delivery_seconds` (each attempt's duration, a summary) and `indoor_webhook_disabled_total` (hooks
/// disabled for failing too long). Alerting on `rate(indoor_webhook_deliveries_total{result="failed"}[5m]) > 0` finds a
/// target that is down before it is disabled.
public struct WebhookMetrics: Sendable {
    let delivered: CoreMetrics.Counter
    let failed: CoreMetrics.Counter
    let events: CoreMetrics.Counter
    let disabled: CoreMetrics.Counter
    let duration: CoreMetrics.Timer

    /// The counters, registered with `factory` (the server's, so `/metrics` shows them); by default with a registry of
    /// their own (counted, shown nowhere).
    public init(factory: PrometheusMetricsFactory = PrometheusMetricsFactory()) {
        delivered = CoreMetrics.Counter(
            label: "indoor_webhook_deliveries_total", dimensions: [("result", "delivered")], factory: factory)
        failed = CoreMetrics.Counter(
            label: "indoor_webhook_deliveries_total", dimensions: [("result", "failed")], factory: factory)
        events = CoreMetrics.Counter(label: "indoor_webhook_events_delivered_total", factory: factory)
        disabled = CoreMetrics.Counter(label: "indoor_webhook_disabled_total", factory: factory)
        duration = CoreMetrics.Timer(label: "indoor_webhook_delivery_seconds", factory: factory)
    }

    /// Counts `delivery`, an attempt to deliver a batch of `events` events.
    func record(_ delivery: WebhookDelivery, events count: Int) {
        if delivery.delivered {
            delivered.increment()
            events.increment(by: count)
        } else {
            failed.increment()
        }
        duration.recordNanoseconds(Int64(max(0, delivery.durationSeconds) * 1_000_000_000))
    }
}
