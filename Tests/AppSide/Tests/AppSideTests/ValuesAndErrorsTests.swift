import Foundation
import IndoorAdvertising
import IndoorCoreLocation
import IndoorGeofencing
import IndoorModel
import IndoorPositioning
import IndoorRanging
import IndoorSession
import Testing

/// The values an app is handed are values it can make (for its tests and its own sources), and every error the
/// products throw has a public code or a public type an app compares; a method of the app's own plugs into
/// positioning (docs/POSITIONING.md).
@Suite("App side: values, errors, methods")
struct ValuesAndErrorsTests {
    @Test("Values an app receives are constructible: events, fixes, visits, peers, results, statistics")
    func valuesAnAppReceivesAreConstructible() {
        let beacon = AppSide.beacon(7)
        let condition = BeaconCondition(beacon)
        let ranging = RangedBeacon(
            time: 1, device: "me", source: .beacon(beacon), rssi: -60, distance: 1.1, proximity: .near)
        let fix = Fix(
            time: 1, device: "me", position: Point3D(x: 1, y: 2, z: 0), accuracy: 2, confidence: 0.5, method: "app")
        let zone = ZoneEvent(
            kind: .checkIn, time: 1, zone: "east", zoneName: "East room", device: "me", trigger: .fence, fence: "0",
            willCheckOut: true)
        let monitor: [MonitorEvent] = [
            .didStartObserving(conditions: [condition], time: 0),
            .didEnterArea(condition: condition, beacon: beacon, time: 1),
            .didFindBeacon(FoundBeacon(condition: condition, beacon: beacon, ranging: ranging)),
            .didLeaveArea(AreaExit(condition: condition, beacon: beacon, lastHeard: 1, time: 11)),
            .didStopObserving(ObservationStop(reason: .requested, conditions: [condition], beacons: [], time: 12)),
        ]
        let peer = Peer(key: PeerKey(major: 1, minor: 7), displayName: "Ana", lastUpdate: 1)
        let events: [SessionEvent] = [
            .fix(fix), .zone(zone), .monitor(monitor[1], device: "me"), .peer(.appeared(peer), time: 1),
        ]
        #expect(events.map(\.time) == [1, 1, 1, 1] && monitor.map(\.time) == [0, 1, 1, 11, 12])
        #expect(events.map(\.type) == ["fix", "zone", "monitor", "peer"])
        let visit = ZoneVisit(
            zone: "east", device: "me", trigger: .fence, fence: "0", checkIn: 1, checkOut: 11, reason: .left)
        #expect(visit.dwell == 10 && ActivityLog(visits: [visit]).totalDwell(device: "me", zone: "east") == 10)
        var statistics = SessionStatistics()
        statistics.fixes = 3
        #expect(statistics.fixes == 3 && statistics.sightings == 0)
        let result = ScanResult(
            floor: nil, latitude: 52.5, longitude: 13.4, x: 1, y: 2, accuracy: 2.5, confidence: 0.4, timestamp: 10,
            geofenceId: "tiny", venueId: "tiny", method: "auto+track", beacons: 2, duration: 10)
        #expect(result.json().hasPrefix("{\"accuracy\":2.5,"))
        let reading = NodeReading(
            node: Node(id: "n1", position: Point3D(x: 0, y: 0, z: 0)), rssi: -59, distance: 1, distanceVariance: 0.1,
            lastHeard: 1)
        #expect(reading.node.id == "n1")
        #expect(Estimate(position: Point3D(x: 0, y: 0, z: 0), accuracy: 1, confidence: 0.5).floor == nil)
        #expect(MonitoredCondition.Event(condition: condition, inside: false, time: 2).inside == false)
    }

    @Test("Errors have public codes an app compares: formats, advertising, positioning, monitoring, scans")
    func errorsHaveComparableCodes() throws {
        do {
            _ = try Venue.decodeJSON(Data("{".utf8))
            Issue.record("a broken venue was read")
        } catch let error as FormatError {
            #expect(error.code == .invalidJSON)
        }
        do {
            _ = try ADStructure.parse([5, 0xFF])
            Issue.record("a broken advertisement was read")
        } catch let error as AdvertisingError {
            #expect(error.code == .malformedAdvertisingData)
        }
        let engine = PositioningEngine(nodes: try AppSide.venue().nodes, method: WeightedCentroid())
        guard case .failure(let noFix) = engine.locate(device: "nobody", at: 0) else {
            Issue.record("a device never heard was located")
            return
        }
        #expect(noFix.code == .notHeard)
        let codes: Set<ScanError.Code> = [.unknownGeofence, .nothingHeard, .tooFewBeacons, .cancelled, .notAuthorized]
        #expect(codes.contains(ScanError.notAuthorized.code) && ScanError.cancelled.code == .cancelled)
        let monitorCodes: [MonitorError.Code] = [.emptyBeaconList, .observationInProgress, .notAuthorized]
        #expect(Set(monitorCodes).count == 3 && MonitorError.notAuthorized.code == .notAuthorized)
        // The errors without codes are told apart by type, and an app makes them for its tests.
        #expect(SessionError("fixInterval").message == "fixInterval")
        #expect(MissingSurveyError(method: "knn").description.contains("knn"))
    }

    /// The nearest node as the answer: docs/POSITIONING.md's example of a method of one's own.
    struct NearestNode: PositioningMethod {
        let name = "nearest-node"
        func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
            guard let best = readings.first else { return .failure(NoFix(.notHeard, "no node heard")) }
            return .success(
                Estimate(position: best.node.position, floor: best.node.floor, accuracy: best.distance, confidence: 0.3)
            )
        }
    }

    @Test("POSITIONING.md: a method of the app's own plugs into the engine and into Blend")
    func ownMethodPlugsIntoTheEngine() throws {
        let venue = try AppSide.venue()
        var engine = PositioningEngine(venue: venue, method: NearestNode())
        engine.ingest(Sighting(time: 0, device: "p", node: "n2", rssi: -59))
        let fix = try engine.locate(device: "p", at: 0).get()
        #expect(fix.method == "nearest-node" && fix.position.x == 20 && fix.coordinate != nil)
        let blend = Blend([.init(NonlinearLeastSquares(deviceHeight: 1.2), trust: 3), .init(NearestNode(), trust: 1)])
        var blended = PositioningEngine(nodes: venue.nodes, method: blend)
        blended.ingest(Sighting(time: 0, device: "p", node: "n2", rssi: -59))
        #expect(try blended.locate(device: "p", at: 0).get().position.x == 20)  // nonlinear fails with one node
        var byName = try MethodCatalog.engine(method: "weighted-centroid", nodes: venue.nodes)
        byName.ingest(Sighting(time: 0, device: "p", node: "n1", rssi: -59))
        #expect(try byName.locate(device: "p", at: 0).get().position.x == 0)
    }
}
