import Foundation
import IndoorModel
import Testing

@testable import IndoorGeofencing

@Suite("Monitor events and ranging as JSON")
struct MonitorEventJSONTests {
    let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONFormat.encoder().encode(value), as: UTF8.self)
    }

    @Test("a ranging update: seconds, the radio as beacon or node, dBm, metres, proximity; unknown distance is null")
    func rangedBeacon() throws {
        let ranged = RangedBeacon(
            time: 12, device: "phone-1", source: .beacon(beacon(2)), rssi: -67.5, distance: 2.5, proximity: .near)
        #expect(
            try json(ranged)
                == #"{"beacon":"\#(uuid)/1/2","device":"phone-1","distance":2.5,"proximity":"near","rssi":-67.5,"t":12}"#
        )
        let unknown = RangedBeacon(
            time: 3, device: "gw", source: .node("n1"), rssi: -.infinity, distance: .infinity, proximity: .unknown)
        #expect(
            try json(unknown)
                == #"{"device":"gw","distance":null,"node":"n1","proximity":"unknown","rssi":null,"t":3}"#)
    }

    @Test("every monitor event is one object with its case name as event and its time as t")
    func monitorEvents() throws {
        let condition = BeaconCondition(uuid: monitorUUID, major: 1)
        let ranging = RangedBeacon(
            time: 1, device: "me", source: .beacon(beacon(7)), rssi: -59, distance: 1, proximity: .near)
        let events: [MonitorEvent] = [
            .didStartObserving(conditions: [condition], time: 0),
            .didEnterArea(condition: condition, beacon: beacon(7), time: 1),
            .didFindBeacon(FoundBeacon(condition: condition, beacon: beacon(7), ranging: ranging)),
            .didLeaveArea(AreaExit(condition: condition, beacon: beacon(7), lastHeard: 12, time: 22)),
            .didStopObserving(
                ObservationStop(reason: .authorizationRevoked, conditions: [condition], beacons: [beacon(7)], time: 30)),
        ]
        #expect(
            try events.map(json) == [
                #"{"conditions":["\#(uuid)/1"],"event":"didStartObserving","t":0}"#,
                #"{"beacon":"\#(uuid)/1/7","condition":"\#(uuid)/1","event":"didEnterArea","t":1}"#,
                #"{"beacon":"\#(uuid)/1/7","condition":"\#(uuid)/1","device":"me","distance":1,"event":"didFindBeacon","proximity":"near","rssi":-59,"t":1}"#,
                #"{"beacon":"\#(uuid)/1/7","condition":"\#(uuid)/1","event":"didLeaveArea","lastHeard":12,"t":22}"#,
                #"{"beacons":["\#(uuid)/1/7"],"conditions":["\#(uuid)/1"],"event":"didStopObserving","reason":"authorizationRevoked","t":30}"#,
            ])
    }

    @Test("a monitor's real events encode, one JSON object each, in order")
    func monitorRun() throws {
        var monitor = BeaconMonitor(ranger: ThresholdRanger(), exitDelay: 10)
        var events = try monitor.start([BeaconCondition(uuid: monitorUUID)], at: 0)
        events += monitor.ingest(heard(1, beacon(7)))
        events += monitor.advance(to: 11)
        events += monitor.stop(at: 12)
        let names = try events.map { event -> String in
            let object = try JSONSerialization.jsonObject(with: try JSONFormat.encoder().encode(event))
            return (object as? [String: Any])?["event"] as? String ?? "?"
        }
        #expect(names == ["didStartObserving", "didEnterArea", "didFindBeacon", "didLeaveArea", "didStopObserving"])
    }
}
