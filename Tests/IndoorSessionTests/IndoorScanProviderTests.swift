import Foundation
import IndoorModel
import IndoorSession
import Synchronization
import Testing

/// Every call of the provider's handler in one scan: the JSON, the start location, and whether it ran on the
/// registered queue.
private struct Call: Sendable {
    var json: String?
    var location: DeviceLocation?
    var onQueue: Bool
}

private let callbackQueue = DispatchQueue(label: "indoor.tests.scan-callbacks")
private let queueKey = DispatchSpecificKey<Bool>()

/// Starts a scan through the static entry point and returns every handler call, once the scan is over and the
/// callback queue has drained (so a second call would be seen).
private func scanThroughProvider(
    _ geofence: String, seconds: TimeInterval, location: DeviceLocation? = nil,
    whileRunning: @escaping @Sendable () async -> Void = {}
) async -> [Call] {
    callbackQueue.setSpecific(key: queueKey, value: true)
    let calls = CallLog()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        IndoorScanProvider.startIndoorScan(geofence, forLength: seconds, withKnownLocation: location) { json, start in
            let first = calls.append(
                Call(json: json, location: start, onQueue: DispatchQueue.getSpecific(key: queueKey) == true))
            if first { done.resume() }
        }
        Task { await whileRunning() }
    }
    while IndoorScanProvider.runningScans > 0 { await Task.yield() }
    callbackQueue.sync {}
    return calls.calls
}

private final class CallLog: Sendable {
    private let log = Mutex<[Call]>([])
    var calls: [Call] { log.withLock { $0 } }
    /// Appends `call`. - Returns: whether it is the first.
    func append(_ call: Call) -> Bool {
        log.withLock {
            $0.append(call)
            return $0.count == 1
        }
    }
}

@Suite("IndoorScanProvider", .serialized)
struct IndoorScanProviderTests {
    let venue = hallVenue()

    private func register(
        authorization: LocationAuthorization = .whenInUse, clock: (any Clock<Duration>)? = nil,
        _ sightings: [Sighting]
    ) {
        IndoorScanProvider.register(
            IndoorScanner(venues: [venue], authorization: authorization, clock: clock) { replaying(sightings) },
            callbackQueue: callbackQueue)
    }

    @Test func successCallsTheHandlerOnceOnTheQueueWithTheJSON() async throws {
        register(standing(at: Point2D(x: 3, y: 17), in: venue, seconds: 12))
        let known = hallAnchor.coordinate(of: Point2D(x: 4, y: 16))
        let location = DeviceLocation(latitude: known.latitude, longitude: known.longitude, horizontalAccuracy: 30)
        let calls = await scanThroughProvider("hall", seconds: 10, location: location)
        #expect(calls.count == 1)
        let call = try #require(calls.first)
        #expect(call.onQueue)
        #expect(call.location == location)
        let result = try ScanResult.decodeJSON(try #require(call.json))
        #expect(result.duration == 10 && result.geofenceId == "hall")
        #expect(Point2D(x: result.x, y: result.y).distance(to: Point2D(x: 3, y: 17)) < hallTolerance)
    }

    @Test(arguments: [
        ("elsewhere", ScanError.Code.unknownGeofence), ("hall", ScanError.Code.nothingHeard),
        ("hall-one-beacon", ScanError.Code.tooFewBeacons),
    ])
    func everyFailureCallsTheHandlerOnceWithNil(geofence: String, code: ScanError.Code) async {
        var one = hallVenue(id: "one", geofences: ["hall-one-beacon"])
        one.nodes = Array(one.nodes.prefix(1))
        let sightings = geofence == "hall" ? [] : standing(at: Point2D(x: 1, y: 1), in: one, seconds: 6)
        IndoorScanProvider.register(
            IndoorScanner(venues: [venue, one]) { replaying(sightings) }, callbackQueue: callbackQueue)
        let calls = await scanThroughProvider(geofence, seconds: 5)
        #expect(calls.count == 1)
        #expect(calls.first?.json == nil && calls.first?.onQueue == true)
        #expect(IndoorScanProvider.lastError?.code == code)
    }

    @Test func notAuthorisedABadLengthAndNoScannerCallTheHandlerOnceWithNil() async {
        register(authorization: .denied, standing(at: Point2D(x: 3, y: 3), in: venue, seconds: 6))
        var calls = await scanThroughProvider("hall", seconds: 5)
        #expect(calls.count == 1 && calls.first?.json == nil)
        #expect(IndoorScanProvider.lastError?.code == .notAuthorized)

        register(standing(at: Point2D(x: 3, y: 3), in: venue, seconds: 6))
        for seconds in [0, -5, .nan, 1e9] as [TimeInterval] {
            calls = await scanThroughProvider("hall", seconds: seconds)
            #expect(calls.count == 1 && calls.first?.json == nil && calls.first?.onQueue == true)
            #expect(IndoorScanProvider.lastError?.code == .invalidRequest)
        }

        IndoorScanProvider.unregister()
        #expect(IndoorScanProvider.scanner == nil)
        calls = await scanThroughProvider("hall", seconds: 5)
        #expect(calls.count == 1 && calls.first?.json == nil)
        #expect(IndoorScanProvider.lastError?.code == .invalidRequest)
    }

    @Test func cancellationCallsTheHandlerOnceWithNil() async {
        let source = HandFedSource()
        let scanner = IndoorScanner(venues: [venue]) { source.stream }
        IndoorScanProvider.register(scanner, callbackQueue: callbackQueue)
        let calls = await scanThroughProvider("hall", seconds: 10) {
            while await scanner.activeScans < 1 { await Task.yield() }
            IndoorScanProvider.cancelAllScans()
        }
        #expect(calls.count == 1 && calls.first?.json == nil)
        #expect(IndoorScanProvider.lastError?.code == .cancelled)
    }

    @Test func theLiveClockEndingTheScanCallsTheHandlerOnce() async {
        let clock = ManualClock()
        let source = HandFedSource()
        let scanner = IndoorScanner(venues: [venue], clock: clock) { source.stream }
        IndoorScanProvider.register(scanner, callbackQueue: callbackQueue)
        let calls = await scanThroughProvider("hall", seconds: 5) {
            while clock.sleeperCount == 0 { await Task.yield() }
            clock.advance(by: .seconds(5))
        }
        #expect(calls.count == 1 && calls.first?.json == nil)
        #expect(IndoorScanProvider.lastError?.code == .nothingHeard)
    }
}
