import CoreMetrics
import Foundation
import IndoorGateways
import IndoorGeofencing
import IndoorMQTT
import IndoorModel
import Logging
import Synchronization

/// Publishes each venue's fixes, zone events and zones' occupancy to the broker, and Home Assistant's entities when
/// asked.
///
/// Topics (`<root>` is `indoor` unless configured; ids in topics are ``topicSegment(_:)``s, escaped by one rule that
/// every broker passes unchanged, the same in Home Assistant's object ids, ``HomeAssistantDevice``):
/// - with `--publish` (``MQTTBridgeConfiguration/publish``), for the devices it selects:
///   `<root>/<venue>/devices/<device>`, retained: the device's latest fix with its held room (the JSON of
///   `GET /v1/venues/{venue}/devices/{device}`), and `<root>/<venue>/events`: each zone event (the JSON of a zone
///   event, with the device's held `room` beside its keys: ``DeviceZoneEvent``);
/// - with `--publish` or Home Assistant: `<root>/<venue>/zones/<zone>`, retained, each zone's occupancy
///   (``ZoneStatePayload``: `count`, `occupied`, `zoneName`, and `t` of the change), published at each `occupancy`
///   event, for every zone when a venue is put and when the bridge starts, emptied when the zone or its venue goes;
/// - with Home Assistant, for the devices it is given (``MQTTBridgeConfiguration/HomeAssistant/devices``), one Home
///   Assistant device each (named by the device's id) with two entities, discovered once per device and again with
///   their states when Home Assistant says `online`:
///   - a `device_tracker` (`<prefix>/device_tracker/<object>/config`, `name` null): its state
///     `<root>/<venue>/devices/<device>/state` is `home` while the device has fixes, `not_home` once it is lost (a
///     check-out with reason `lost`, or the session letting it go), which Home Assistant's `person` follows; its
///     attributes `…/attributes` (``TrackerAttributes``) are published when they change meaningfully
///     (``TrackerAttributes/worthPublishing(after:seconds:)``), and lose the position when the device is lost;
///   - a `sensor` named `Room` (`<prefix>/sensor/<object>_room/config`): its state `…/room` is the name of the room
///     the session holds the device in, or `none` (in no room, or lost);
/// - for each person of a venue (``IndoorModel/Person``; ``publishPerson(_:venue:)``): with `--publish`,
///   `<root>/<venue>/persons/<person>`, retained, the person with where they are (the JSON of
///   `GET /v1/venues/{venue}/persons/{person}`), and their `person` events on `<root>/<venue>/events`; with Home
///   Assistant, a `device_tracker` and a `Room` sensor as a device's, under a Home Assistant device named by the
///   person (object id `indoor_<venue>__person__<person>`), `home` while one of their devices is held;
/// - with Home Assistant, per zone a `binary_sensor` (device class `occupancy`) and a `sensor` (the count, state
///   class `measurement`) reading the zone's topic, under one Home Assistant device per venue (``HomeAssistantZone``),
///   discovered with the zone's first state and again when Home Assistant says `online`; a zone or venue that goes
///   has its configs emptied, and a venue deleted its devices' entities too.
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
        /// Home Assistant's devices: what was last published for each.
        var trackers: [HomeAssistantDevice: Tracker] = [:]
        /// Each zone's state as last published (``ZoneStatePayload``).
        var zones: [HomeAssistantZone: ZoneStatePayload] = [:]
        /// Discovery and states to send again for every tracker (Home Assistant came online).
        var resend = false
        var failures = 0
        /// When a refused publish was last logged, and how many were not logged since.
        var refusalLoggedAt = -Double.infinity
        var refusalsNotLogged = 0
    }

    /// What was last published for one of Home Assistant's devices (`nil`: nothing yet).
    struct Tracker {
        /// The name of the Home Assistant device: a person's name (`nil` for a device, named by its id).
        var name: String?
        /// The tracker's state: `home` or `not_home`.
        var state: String?
        /// The room sensor's state: a room's name or ``RoomSensor/none``.
        var room: String?
        /// The tracker's attributes, and the data time of the fix they came from (seconds).
        var attributes: TrackerAttributes?
        var attributesTime = -Double.infinity
    }

    /// The name of a venue by id (its Home Assistant device's name), `nil` for one unknown (then its id names it).
    let venueName: @Sendable (String) -> String?

    init(
        client: MQTTClient, configuration: MQTTBridgeConfiguration, metrics: ServerMetrics, logger: Logger,
        venueName: @escaping @Sendable (String) -> String? = { _ in nil }
    ) {
        self.venueName = venueName
        self.client = client
        self.configuration = configuration
        self.metrics = metrics
        self.logger = logger
    }

    /// Sends every Home Assistant device's discovery configs again, then its entities' states and attributes as last
    /// published, now (Home Assistant came online: it, or a broker without persistence, may have lost them).
    func resendToHomeAssistant() {
        state.withLock { $0.resend = true }
        Task { await self.resendIfAsked() }
    }

    /// Publishes `feed`'s events until it ends or the task is cancelled.
    func run(_ feed: AsyncStream<VenueLiveEvents>) async {
        for await batch in feed {
            if Task.isCancelled { break }
            await resendIfAsked()
            for event in batch.events { await publish(event, venue: batch.venue) }
            await announceZones(batch.zones, venue: batch.venue)
            for zone in batch.removedZones { await removeZone(HomeAssistantZone(venue: batch.venue, zone: zone)) }
            for device in batch.forgotten { await forget(device, venue: batch.venue) }
            for person in batch.persons { await publishPerson(person, venue: batch.venue) }
            for person in batch.removedPersons {
                await clear(HomeAssistantDevice(venue: batch.venue, device: person, isPerson: true))
            }
            var erased = batch.erased
            if batch.venueDeleted {
                // Every device published for the venue goes with it, those without a latest fix too.
                let tracked = state.withLock { $0.trackers.keys.filter { $0.venue == batch.venue }.map(\.device) }
                erased += tracked.filter { !erased.contains($0) }.sorted()
            }
            for device in erased { await clear(device, venue: batch.venue) }
        }
    }

    /// Publishes the state of `venue`'s `zones` (a venue put, or the bridge starting) where it differs from what was
    /// last published, announcing their Home Assistant entities the first time.
    func announceZones(_ zones: [ZoneOccupancyState], venue: String) async {
        for zone in zones {
            let payload = ZoneStatePayload(
                count: zone.count, occupied: zone.count > 0, zoneName: zone.name, time: nil)
            await setZone(HomeAssistantZone(venue: venue, zone: zone.zone), payload, onlyIfChanged: true)
        }
    }

    /// Publishes where each of `venue`'s persons is (the bridge starting): ``publishPerson(_:venue:)`` for each.
    func announcePersons(_ persons: [PersonUpdate], venue: String) async {
        for person in persons { await publishPerson(person, venue: venue) }
    }

    /// Whether zones' states are published: with `--publish` or with Home Assistant (whose zone entities read them).
    private var publishesZones: Bool { configuration.publish != nil || configuration.homeAssistant != nil }

    /// Publishes `payload` on `key`'s zone topic (retained), after its Home Assistant discovery configs the first
    /// time (or when the zone's name changed); with `onlyIfChanged`, nothing when the count and name are as last
    /// published.
    private func setZone(_ key: HomeAssistantZone, _ payload: ZoneStatePayload, onlyIfChanged: Bool = false) async {
        guard publishesZones else { return }
        let previous = state.withLock { state -> ZoneStatePayload? in
            let previous = state.zones[key]
            if !onlyIfChanged || previous?.count != payload.count || previous?.zoneName != payload.zoneName {
                state.zones[key] = payload
            }
            return previous
        }
        if onlyIfChanged, let previous, previous.count == payload.count, previous.zoneName == payload.zoneName {
            return
        }
        if previous?.zoneName != payload.zoneName { await sendZoneDiscovery(key, name: payload.zoneName) }
        await send(key.topic(root: configuration.publishRoot), payload, retain: true)
    }

    /// A zone that is gone (its venue replaced without it, or deleted): its retained state and Home Assistant
    /// discovery configs are emptied (Home Assistant then removes its entities, and the venue's device with the
    /// last of them), whether or not this process published them.
    private func removeZone(_ key: HomeAssistantZone) async {
        guard publishesZones else { return }
        state.withLock { _ = $0.zones.removeValue(forKey: key) }
        await sendRaw(key.topic(root: configuration.publishRoot), [], retain: true)
        guard let homeAssistant = configuration.homeAssistant else { return }
        await sendRaw(key.occupancyConfigTopic(prefix: homeAssistant.prefix), [], retain: true)
        await sendRaw(key.countConfigTopic(prefix: homeAssistant.prefix), [], retain: true)
    }

    /// Sends `key`'s discovery configs, the zone named `name`: its occupancy `binary_sensor` and its count `sensor`,
    /// under the venue's Home Assistant device.
    private func sendZoneDiscovery(_ key: HomeAssistantZone, name: String) async {
        guard let homeAssistant = configuration.homeAssistant else { return }
        let device = key.venueDevice(name: venueName(key.venue) ?? key.venue)
        let topic = key.topic(root: configuration.publishRoot)
        let occupancy = ZoneOccupancyDiscovery(
            uniqueID: key.occupancyObjectID, name: name, stateTopic: topic, device: device)
        await send(key.occupancyConfigTopic(prefix: homeAssistant.prefix), occupancy, retain: true)
        let count = ZoneCountDiscovery(
            uniqueID: key.countObjectID, name: "\(name) count", stateTopic: topic, device: device)
        await send(key.countConfigTopic(prefix: homeAssistant.prefix), count, retain: true)
    }

    /// A device whose data was erased: every retained topic published for it in `venue` is emptied (an empty retained
    /// payload deletes the broker's retained message), its Home Assistant discovery too (Home Assistant then removes
    /// its entities), and its tracker is dropped. Done whether or not this process published them (another process
    /// may have, before a restart).
    func clear(_ device: String, venue: String) async {
        await clear(HomeAssistantDevice(venue: venue, device: device))
    }

    /// `key`'s device or person is gone: every retained topic published for it is emptied, its Home Assistant
    /// discovery too, and its tracker is dropped (``clear(_:venue:)``).
    private func clear(_ key: HomeAssistantDevice) async {
        state.withLock { _ = $0.trackers.removeValue(forKey: key) }
        var topics = Self.retainedTopics(of: key, configuration: configuration)
        if let homeAssistant = configuration.homeAssistant,
            let legacy = key.legacyConfigTopic(prefix: homeAssistant.prefix)
        {
            topics.append(legacy)
        }
        for topic in topics { await sendRaw(topic, [], retain: true) }
    }

    /// Every retained topic the publisher may have published for `device` in `venue`: its fix, its tracker's state and
    /// attributes, its room, and with Home Assistant its discovery configs.
    static func retainedTopics(
        of device: String, venue: String, configuration: MQTTBridgeConfiguration
    ) -> [String] {
        retainedTopics(of: HomeAssistantDevice(venue: venue, device: device), configuration: configuration)
    }

    /// Every retained topic the publisher may have published for `key`'s device or person.
    static func retainedTopics(of key: HomeAssistantDevice, configuration: MQTTBridgeConfiguration) -> [String] {
        let base = key.base(root: configuration.publishRoot)
        var topics = [base, "\(base)/state", "\(base)/attributes", "\(base)/room"]
        if let homeAssistant = configuration.homeAssistant {
            topics.append(key.trackerConfigTopic(prefix: homeAssistant.prefix))
            topics.append(key.roomConfigTopic(prefix: homeAssistant.prefix))
        }
        return topics
    }

    /// A device the venue's session let go (its tracking expired: silent past the session's device memory, after
    /// its check-outs as `lost`, or evicted beyond its cap), so that no new subscriber is sent a lost device's last
    /// position and the trackers kept here do not grow with every device ever heard:
    /// - given to Home Assistant: its entities stay (so that Home Assistant's `person` sees it away, not gone), lost
    ///   (``lost(_:)``: `not_home`, room `none`, attributes without a position), its fix's retained topic is emptied
    ///   and its tracker dropped here (heard again, it is announced anew); its retained topics go when its data does
    ///   (erased, or expired with `--retain-events`, ``clear(_:venue:)``, and under MQTT 5 by their expiry);
    /// - else every retained topic published for it is emptied (``clear(_:venue:)``).
    private func forget(_ device: String, venue: String) async {
        let key = HomeAssistantDevice(venue: venue, device: device)
        guard tracks(device) else {
            if publishes(device) { await clear(device, venue: venue) }
            return
        }
        if state.withLock({ $0.trackers[key] }) != nil { await lost(key) }
        state.withLock { _ = $0.trackers.removeValue(forKey: key) }
        await sendRaw(key.base(root: configuration.publishRoot), [], retain: true)
    }

    /// How many devices have a Home Assistant tracker now.
    var trackerCount: Int { state.withLock { $0.trackers.count } }

    private func publish(_ event: LiveEvent, venue: String) async {
        let root = "\(configuration.publishRoot)/\(Self.topicSegment(venue))"
        switch event.stored.event {
        case .fix(let fix):
            let key = HomeAssistantDevice(venue: venue, device: fix.device)
            if publishes(fix.device) {
                await send(
                    key.base(root: configuration.publishRoot), DeviceFix(fix: fix, room: event.room), retain: true)
            }
            guard tracks(fix.device) else { return }
            await announce(key)
            await present(key, fix: fix, room: event.room)
        case .zone(let zone):
            if publishes(zone.device) {
                await send("\(root)/events", DeviceZoneEvent(zone: zone, room: event.room), retain: false)
            }
            if zone.kind == .checkOut, zone.reason == .lost, tracks(zone.device) {
                let key = HomeAssistantDevice(venue: venue, device: zone.device)
                await announce(key)
                await lost(key)
            }
        case .person(let person):
            if configuration.publish != nil { await send("\(root)/events", person, retain: false) }
        case .occupancy(let occupancy):
            let payload = ZoneStatePayload(
                count: occupancy.count, occupied: occupancy.occupied, zoneName: occupancy.zoneName,
                time: occupancy.time)
            await setZone(HomeAssistantZone(venue: venue, zone: occupancy.zone), payload)
        }
    }

    /// A person of `venue` whose location changed, or every person when the venue was put: with `--publish`, the
    /// person's JSON (``PersonAnswer``) on `<root>/<venue>/persons/<person>`, retained; with Home Assistant, the
    /// person's tracker and room sensor under a Home Assistant device named by the person's name: `home` with the
    /// chosen fix's attributes and room while one of their devices is held, `not_home` (no position, room `none`)
    /// when none is. Every person of a venue given to Home Assistant is tracked: enrolling one is the operator's
    /// choice.
    private func publishPerson(_ update: PersonUpdate, venue: String) async {
        let key = HomeAssistantDevice(venue: venue, device: update.person, isPerson: true)
        if configuration.publish != nil {
            await send(key.base(root: configuration.publishRoot), PersonAnswer(update), retain: true)
        }
        guard configuration.homeAssistant != nil else { return }
        await announce(key, name: update.name)
        if let location = update.location {
            await present(key, fix: location.fix, room: update.room)
        } else {
            await lost(key)
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

    /// Sends `key`'s discovery configs the first time it is seen (or when its person's `name` changed), and empties
    /// the config an earlier release gave it.
    private func announce(_ key: HomeAssistantDevice, name: String? = nil) async {
        let (known, renamed) = state.withLock { state -> (Bool, Bool) in
            var tracker = state.trackers[key] ?? Tracker()
            let known = state.trackers[key] != nil
            let renamed = name != nil && tracker.name != name
            if let name { tracker.name = name }
            state.trackers[key] = tracker
            return (known, renamed)
        }
        guard !known || renamed else { return }
        await sendDiscovery(key)
        guard !known else { return }
        if let homeAssistant = configuration.homeAssistant,
            let legacy = key.legacyConfigTopic(prefix: homeAssistant.prefix)
        {
            await sendRaw(legacy, [], retain: true)
        }
    }

    /// A fix of `key`'s device: its tracker is `home`, its room sensor the room held (``DeviceRoom/State/room``),
    /// `none` in no room, as it was while the fixes leave a room and have not settled (``DeviceRoom/State/unknown``)
    /// or when the fix carries no room; its attributes when they changed meaningfully.
    private func present(_ key: HomeAssistantDevice, fix: Fix, room: DeviceRoom?) async {
        await setState(key, \.state, "home", topic: "state")
        let last = state.withLock { $0.trackers[key] }
        let name: String
        switch room?.state {
        case .room: name = room?.zoneName ?? room?.zone ?? RoomSensor.none
        case .noRoom: name = RoomSensor.none
        case .unknown, nil: name = last?.room ?? RoomSensor.none
        }
        await setState(key, \.room, name, topic: "room")
        let attributes = TrackerAttributes(fix: fix, venue: key.venue, room: name == RoomSensor.none ? nil : name)
        let due = state.withLock { state -> Bool in
            guard var tracker = state.trackers[key] else { return false }
            guard attributes.worthPublishing(after: tracker.attributes, seconds: fix.time - tracker.attributesTime)
            else { return false }
            tracker.attributes = attributes
            tracker.attributesTime = fix.time
            state.trackers[key] = tracker
            return true
        }
        if due { await send("\(key.base(root: configuration.publishRoot))/attributes", attributes, retain: true) }
    }

    /// `key`'s device is lost: its tracker is `not_home`, its room sensor `none`, its attributes lose the position.
    private func lost(_ key: HomeAssistantDevice) async {
        await setState(key, \.state, "not_home", topic: "state")
        await setState(key, \.room, RoomSensor.none, topic: "room")
        let attributes = TrackerAttributes.lost(venue: key.venue)
        let due = state.withLock { state -> Bool in
            guard var tracker = state.trackers[key], tracker.attributes != attributes else { return false }
            tracker.attributes = attributes
            state.trackers[key] = tracker
            return true
        }
        if due { await send("\(key.base(root: configuration.publishRoot))/attributes", attributes, retain: true) }
    }

    /// Publishes `value` on `<base>/<topic>` (retained) unless it is what `field` of `key`'s tracker says was.
    private func setState(
        _ key: HomeAssistantDevice, _ field: WritableKeyPath<Tracker, String?>, _ value: String, topic: String
    ) async {
        let changed = state.withLock { state -> Bool in
            guard var tracker = state.trackers[key], tracker[keyPath: field] != value else { return false }
            tracker[keyPath: field] = value
            state.trackers[key] = tracker
            return true
        }
        guard changed else { return }
        await sendRaw("\(key.base(root: configuration.publishRoot))/\(topic)", Array(value.utf8), retain: true)
    }

    /// Sends every tracker's discovery and what was last published for it, when Home Assistant came online. Each
    /// value is read just before it is sent, so that a fix published meanwhile is not undone by an older value.
    private func resendIfAsked() async {
        let (keys, zones) = state.withLock { state -> ([HomeAssistantDevice], [HomeAssistantZone]) in
            guard state.resend else { return ([], []) }
            state.resend = false
            return (Array(state.trackers.keys), Array(state.zones.keys))
        }
        for zone in zones {
            guard let payload = state.withLock({ $0.zones[zone] }) else { continue }
            await sendZoneDiscovery(zone, name: payload.zoneName)
            await send(zone.topic(root: configuration.publishRoot), payload, retain: true)
        }
        for key in keys {
            await sendDiscovery(key)
            let base = key.base(root: configuration.publishRoot)
            if let value = state.withLock({ $0.trackers[key]?.state }) {
                await sendRaw("\(base)/state", Array(value.utf8), retain: true)
            }
            if let value = state.withLock({ $0.trackers[key]?.room }) {
                await sendRaw("\(base)/room", Array(value.utf8), retain: true)
            }
            if let attributes = state.withLock({ $0.trackers[key]?.attributes }) {
                await send("\(base)/attributes", attributes, retain: true)
            }
        }
    }

    /// Sends `key`'s discovery configs: its device tracker and its room sensor, under one Home Assistant device.
    private func sendDiscovery(_ key: HomeAssistantDevice) async {
        guard let homeAssistant = configuration.homeAssistant else { return }
        let base = key.base(root: configuration.publishRoot)
        let name = state.withLock { $0.trackers[key]?.name } ?? key.device
        let device = HomeAssistantDeviceBlock(identifiers: [key.objectID], name: name)
        let tracker = TrackerDiscovery(
            uniqueID: key.objectID, stateTopic: "\(base)/state", attributesTopic: "\(base)/attributes", device: device)
        await send(key.trackerConfigTopic(prefix: homeAssistant.prefix), tracker, retain: true)
        let room = RoomSensorDiscovery(uniqueID: key.roomObjectID, stateTopic: "\(base)/room", device: device)
        await send(key.roomConfigTopic(prefix: homeAssistant.prefix), room, retain: true)
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
}
