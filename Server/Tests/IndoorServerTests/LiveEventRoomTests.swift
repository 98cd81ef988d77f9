import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorServerTestSupport
import Synchronization
import Testing

@testable import IndoorServer

/// Every live event carries its device's held room (issue 55 item 4): a batch's zone events beside its device's last
/// fix, and the zone events the venue's clock tick makes, on the venue's live feed and on MQTT (`<root>/<venue>/events`,
/// the zone event's JSON with `room` beside its keys). The stream over HTTP: ``DeviceRoomTests``.
@Suite(.serialized) struct LiveEventRoomTests {
    /// The live events of `venue`, collected as they come.
    final class Feed: Sendable {
        final class Inbox: Sendable {
            let events = Mutex<[LiveEvent]>([])
        }

        let inbox = Inbox()
        let task: Task<Void, Never>

        init(_ stream: AsyncStream<LiveEvent>) {
            let inbox = inbox
            task = Task {
                for await event in stream { inbox.events.withLock { $0.append(event) } }
            }
        }

        var events: [LiveEvent] { inbox.events.withLock { $0 } }

        /// The zone events so far, with their rooms.
        var zoneEvents: [(zone: ZoneEvent, room: DeviceRoom?)] {
            inbox.events.withLock { events in
                events.compactMap { event in
                    guard case .zone(let zone) = event.stored.event else { return nil }
                    return (zone, event.room)
                }
            }
        }
    }

    static let east = DeviceRoom(.room(0), zones: [Zone(id: "east", name: "East room")])

    @Test(.needsBroker) func zoneEventsOfABatchAndOfTheTickCarryTheHeldRoom() async throws {
        let broker = try Broker()
        let clock = TestClock(1000)
        let publishing = try await RetainedTopicsMQTTTests.Publishing(broker, clock: clock)
        defer { publishing.stop() }
        let feed = Feed(try #require(publishing.hub.subscribe(venue: "tiny")))
        defer { feed.task.cancel() }
        let peer = MQTTGatewayTests.Peer(broker: broker, subscriptions: ["indoor/tiny/events"])
        defer { Task { await peer.stop() } }
        try await peer.connected()

        // Into the east room: a check-in there (and across the gate's geoline), each with the room held after the
        // batch, as the device's last fix.
        _ = try await publishing.hub.ingest(venue: "tiny", sightings: ErasureMQTTTests.walk("anna"))
        try await MQTTGatewayTests.eventually("anna's check-in east") {
            feed.zoneEvents.contains { $0.zone.kind == .checkIn && $0.zone.zone == "east" }
        }
        #expect(publishing.hub.room(venue: "tiny", device: "anna") == Self.east)
        for (zone, room) in feed.zoneEvents { #expect(room == Self.east, "\(zone)") }
        let lastFix = feed.events.last { if case .fix = $0.stored.event { true } else { false } }
        #expect(lastFix?.room == Self.east)

        // Silent: the tick moves the venue on in data time by the wall clock's 90 s, past the room's lost timeout
        // (60 s): anna is checked out as lost, by the tick, with the room she was held in.
        clock.advance(by: 90)
        try await publishing.hub.tick(quiet: 1)
        try await MQTTGatewayTests.eventually("anna's check-out east") {
            feed.zoneEvents.contains { $0.zone.kind == .checkOut && $0.zone.zone == "east" }
        }
        let checkOut = try #require(feed.zoneEvents.first { $0.zone.kind == .checkOut })
        #expect(checkOut.zone.reason == .lost)
        #expect(checkOut.room == Self.east)

        // The same events on MQTT, each with its room beside the zone event's keys.
        try await MQTTGatewayTests.eventually("the zone events on MQTT") {
            peer.messages(on: "indoor/tiny/events").count == feed.zoneEvents.count
        }
        for text in peer.messages(on: "indoor/tiny/events") {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(event["device"] as? String == "anna", "\(text)")
            let room = try #require(event["room"] as? [String: Any], "\(text)")
            #expect(room["state"] as? String == "room" && room["zone"] as? String == "east", "\(text)")
        }
        #expect(peer.messages(on: "indoor/tiny/events").contains { $0.contains(#""reason":"lost""#) })
    }
}
