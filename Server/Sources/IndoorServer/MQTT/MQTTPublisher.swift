import CoreMetrics
import Foundation
import IndoorGateways
import IndoorGeofencing
import IndoorMQTT
import IndoorModel
import Logging
import Synchronization

/// Publishes each venue's fixes and zone events to the broker, and Home Assistant's device trackers when asked.
///
/// Topics (`<root>` is `indoor` unless configured; ids in topics are ``topicSegment(_:)``s, escaped by one rule that
/// every broker passes unchanged, the same in Home Assistant's object ids):
/// - with `--publish` (``MQTTBridgeConfiguration/publish``), for the devices it selects:
///   `<root>/<venue>/devices/<device>`, retained: the device's latest fix with its held room (the JSON of
///   `GET /v1/venues/{venue}/devices/{device}`), and `<root>/<venue>/events`: each check-in and check-out (the JSON
///   of a zone event);
/// - with Home Assistant, for the devices it is given (``MQTTBridgeConfiguration/HomeAssistant/devices``):
///   `<prefix>/device_tracker/<object>/config` (retained discovery, once per device, again when Home Assistant says
///   `online`), `<root>/<venue>/devices/<device>/state` (the held room's name, `home` in the venue but in no room,
///   `not_home` once the device is lost) and `…/attributes` (x, y, floor, latitude, longitude, `gps_accuracy`,
///   confidence).
///
/// Everything is published at QoS 0: a state superseded while the broker was away is not worth sending late.
/// A message a limit of the broker forbids (MQTT 5: larger than its Maximum Packet Size, retained where it keeps
/// none) is not sent: it is counted in `indoor_mqtt_publish_refused_total{reason="brokerLimit"}` and logged with its
/// topic (at most once every 10 s).
final class MQTTPublisher: Sendable {
    let client: MQTTClient
    let configuration: MQTTBridgeConfiguration
    let logger: Logger
    let metrics: ServerMetrics
    private let state = Mutex(State())

    struct State {
        /// Home Assistant's devices: venue and device id → the last state published.
        var trackers: [TrackerKey: String] = [:]
        /// Discovery to send again for every tracker (Home Assistant came online).
        var resend = false
        var failures = 0
        /// When a refused publish was last logged, and how many were not logged since.
        var refusalLoggedAt = -Double.infinity
        var refusalsNotLogged = 0
    }

    struct TrackerKey: Hashable {
        var venue: String
        var device: String
    }

    init(client: MQTTClient, configuration: MQTTBridgeConfiguration, metrics: ServerMetrics, logger: Logger) {
        self.client = client
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
    }

    /// Sends every device tracker's discovery again, now (Home Assistant came online and lost what it had).
    func resendDiscovery() {
        state.withLock { $0.resend = true }
        Task { await self.resendIfAsked() }
    }

    /// Publishes `feed`'s events until it ends or the task is cancelled.
    func run(_ feed: AsyncStream<VenueLiveEvents>) async {
        for await batch in feed {
            if Task.isCancelled { break }
            await resendIfAsked()
            for event in batch.events { await publish(event, venue: batch.venue) }
            for device in batch.forgotten { await forget(device, venue: batch.venue) }
            for device in batch.erased { await clear(device, venue: batch.venue) }
        }
    }

    /// A device whose data was erased: every retained topic published for it in `venue` is emptied (an empty retained
    /// payload deletes the broker's retained message), its Home Assistant discovery too (Home Assistant then removes
    /// the tracker), and its tracker is dropped. Done whether or not this process published them (another process
    /// may have, before a restart).
    func clear(_ device: String, venue: String) async {
        state.withLock { _ = $0.trackers.removeValue(forKey: TrackerKey(venue: venue, device: device)) }
        for topic in Self.retainedTopics(of: device, venue: venue, configuration: configuration) {
            await sendRaw(topic, [], retain: true)
        }
    }

    /// Every retained topic the publisher may have published for `device` in `venue`: its fix, its tracker's state and
    /// attributes, and with Home Assistant its discovery config.
    static func retainedTopics(
        of device: String, venue: String, configuration: MQTTBridgeConfiguration
    ) -> [String] {
        let base = "\(configuration.publishRoot)/\(topicSegment(venue))/devices/\(topicSegment(device))"
        var topics = [base, "\(base)/state", "\(base)/attributes"]
        if let homeAssistant = configuration.homeAssistant {
            topics.append("\(homeAssistant.prefix)/device_tracker/\(objectID(venue: venue, device: device))/config")
        }
        return topics
    }

    /// A device the venue's session let go (its tracking expired: silent past the session's device memory, after
    /// its check-outs as `lost`, or evicted beyond its cap): its tracker says `not_home` (live subscribers see it
    /// go), then every retained topic published for it is emptied and its tracker dropped (``clear(_:venue:)``), so
    /// that no new subscriber is sent a lost device's last position and the trackers do not grow with every device
    /// ever heard; heard again, it is announced anew.
    private func forget(_ device: String, venue: String) async {
        let key = TrackerKey(venue: venue, device: device)
        if let last = state.withLock({ $0.trackers[key] }), last != "not_home" {
            await setState("not_home", venue: venue, device: device)
        }
        guard publishes(device) || tracks(device) else { return }
        await clear(device, venue: venue)
    }

    /// How many devices have a Home Assistant tracker now.
    var trackerCount: Int { state.withLock { $0.trackers.count } }

    private func publish(_ event: LiveEvent, venue: String) async {
        let root = "\(configuration.publishRoot)/\(Self.topicSegment(venue))"
        switch event.stored.event {
        case .fix(let fix):
            let device = "\(root)/devices/\(Self.topicSegment(fix.device))"
            if publishes(fix.device) { await send(device, DeviceFix(fix: fix, room: event.room), retain: true) }
            guard tracks(fix.device) else { return }
            await announce(venue: venue, device: fix.device)
            let room = event.room
            let name = room?.state == .room ? (room?.zoneName ?? "home") : "home"
            // A fix without a room answer (not the device's latest of its batch) keeps the state as it was.
            if room != nil { await setState(name, venue: venue, device: fix.device) }
            await send("\(device)/attributes", TrackerAttributes(fix: fix, venue: venue, room: room), retain: true)
        case .zone(let zone):
            if publishes(zone.device) { await send("\(root)/events", zone, retain: false) }
            if zone.kind == .checkOut, zone.reason == .lost, tracks(zone.device) {
                await announce(venue: venue, device: zone.device)
                await setState("not_home", venue: venue, device: zone.device)
            }
        }
    }

    /// Whether `device`'s fixes and zone events are published (``MQTTBridgeConfiguration/publish``).
    private func publishes(_ device: String) -> Bool {
        configuration.publish?.contains(device) ?? false
    }

    /// Whether Home Assistant is given `device` (discovery on, and the device among its ``DeviceSelection``).
    private func tracks(_ device: String) -> Bool {
        configuration.homeAssistant?.devices.contains(device) ?? false
    }

    /// Sends `device`'s discovery config the first time it is seen.
    private func announce(venue: String, device: String) async {
        let key = TrackerKey(venue: venue, device: device)
        let known = state.withLock { state in
            defer { if state.trackers[key] == nil { state.trackers[key] = "" } }
            return state.trackers[key] != nil
        }
        if !known { await sendDiscovery(key) }
    }

    private func setState(_ value: String, venue: String, device: String) async {
        let key = TrackerKey(venue: venue, device: device)
        let changed = state.withLock { state in
            defer { state.trackers[key] = value }
            return state.trackers[key] != value
        }
        guard changed else { return }
        let topic =
            "\(configuration.publishRoot)/\(Self.topicSegment(venue))/devices/\(Self.topicSegment(device))/state"
        await sendRaw(topic, Array(value.utf8), retain: true)
    }

    private func resendIfAsked() async {
        let keys = state.withLock { state -> [TrackerKey] in
            guard state.resend else { return [] }
            state.resend = false
            return Array(state.trackers.keys)
        }
        for key in keys { await sendDiscovery(key) }
    }

    private func sendDiscovery(_ key: TrackerKey) async {
        guard let homeAssistant = configuration.homeAssistant else { return }
        let object = Self.objectID(venue: key.venue, device: key.device)
        let base =
            "\(configuration.publishRoot)/\(Self.topicSegment(key.venue))/devices/\(Self.topicSegment(key.device))"
        let config = TrackerDiscovery(
            uniqueID: object, name: key.device, stateTopic: "\(base)/state", attributesTopic: "\(base)/attributes",
            device: .init(identifiers: [object], name: key.device, manufacturer: "Indoor", model: "Indoor location"))
        await send("\(homeAssistant.prefix)/device_tracker/\(object)/config", config, retain: true)
    }

    private func send(_ topic: String, _ value: some Encodable, retain: Bool) async {
        guard let data = try? JSONFormat.encoder().encode(value) else { return }
        await sendRaw(topic, Array(data), retain: retain)
    }

    /// The Message Expiry Interval of a retained message (MQTT 5), whole seconds: ``MQTTBridgeConfiguration/retainedExpirySeconds``
    /// within 1...`UInt32.max − 1`; `nil` for none.
    var retainedExpiry: UInt32? {
        guard let seconds = configuration.retainedExpirySeconds, seconds.isFinite, seconds > 0 else { return nil }
        return UInt32(min(seconds.rounded(.up), Double(UInt32.max - 1)))
    }

    private func sendRaw(_ topic: String, _ payload: [UInt8], retain: Bool) async {
        do {
            // An empty retained payload deletes the retained message: it needs no expiry.
            try await client.publish(
                topic: topic, payload: payload, qos: .atMostOnce, retain: retain,
                messageExpirySeconds: retain && !payload.isEmpty ? retainedExpiry : nil)
        } catch let error as MQTTClientError where error.code == .brokerLimit {
            refused(error, topic: topic)
        } catch {
            // Not connected: the state is sent again with the device's next fix.
            let failures = state.withLock { state in
                state.failures += 1
                return state.failures
            }
            if failures == 1 || failures % 1000 == 0 {
                logger.notice("MQTT publish failed (\(failures) so far): \(error)")
            }
        }
    }

    /// Counts a message the broker's limits forbid and logs it with its topic, at most once every 10 s.
    private func refused(_ error: MQTTClientError, topic: String) {
        CoreMetrics.Counter(
            label: "indoor_mqtt_publish_refused_total", dimensions: [("reason", "brokerLimit")],
            factory: metrics.factory
        ).increment()
        let now = Date().timeIntervalSince1970
        let notLogged = state.withLock { state -> Int? in
            guard now - state.refusalLoggedAt >= 10 else {
                state.refusalsNotLogged += 1
                return nil
            }
            defer {
                state.refusalLoggedAt = now
                state.refusalsNotLogged = 0
            }
            return state.refusalsNotLogged
        }
        guard let notLogged else { return }
        let more = notLogged > 0 ? " (and \(notLogged) more refused in the last 10 s)" : ""
        logger.warning("MQTT publish refused on \(topic): \(error.message)\(more)")
    }

    /// `id` as one topic level (``IndoorGateways/TopicLevel``): letters, digits and `-` stay, any other byte becomes
    /// `_XX`, so a beacon id `UUID/major/minor` stays one level and no broker changes it.
    static func topicSegment(_ id: String) -> String {
        TopicLevel.escape(id)
    }

    /// Home Assistant's object id (and unique id) of a device: `indoor_<venue>_<device>`, each id a ``topicSegment(_:)``.
    static func objectID(venue: String, device: String) -> String {
        "indoor_\(topicSegment(venue))_\(topicSegment(device))"
    }
}

/// A Home Assistant `device_tracker` discovery config.
struct TrackerDiscovery: Encodable {
    var uniqueID: String
    var name: String
    var stateTopic: String
    var attributesTopic: String
    var sourceType = "bluetooth_le"
    var payloadHome = "home"
    var payloadNotHome = "not_home"
    var device: Device

    struct Device: Encodable {
        var identifiers: [String]
        var name: String
        var manufacturer: String
        var model: String
    }

    enum CodingKeys: String, CodingKey {
        case uniqueID = "unique_id"
        case name
        case stateTopic = "state_topic"
        case attributesTopic = "json_attributes_topic"
        case sourceType = "source_type"
        case payloadHome = "payload_home"
        case payloadNotHome = "payload_not_home"
        case device
    }
}

/// What Home Assistant shows beside a device tracker's state; `latitude`, `longitude` and `gps_accuracy` place it on
/// Home Assistant's map.
struct TrackerAttributes: Encodable {
    var x: Double
    var y: Double
    var floor: Int?
    var latitude: Double?
    var longitude: Double?
    var gpsAccuracy: Double
    var confidence: Double
    var venue: String
    var room: String?

    init(fix: Fix, venue: String, room: DeviceRoom?) {
        x = (fix.position.x * 1000).rounded() / 1000
        y = (fix.position.y * 1000).rounded() / 1000
        floor = fix.floor
        latitude = fix.coordinate?.latitude
        longitude = fix.coordinate?.longitude
        gpsAccuracy = (fix.accuracy * 1000).rounded() / 1000
        confidence = (fix.confidence * 1000).rounded() / 1000
        self.venue = venue
        self.room = room?.zoneName
    }

    enum CodingKeys: String, CodingKey {
        case x, y, floor, latitude, longitude, confidence, venue, room
        case gpsAccuracy = "gps_accuracy"
    }
}
