import Foundation

/// The shape location SDKs call an indoor provider by: a static entry point with a completion handler.
///
/// An SDK that takes a provider *type* is given `IndoorScanProvider.self` (see ``IndoorScanProvider``).
public protocol IndoorScanProviding {
    /// Scans `geofenceId` for `seconds` and calls `completionHandler` exactly once with the result JSON (`nil` when
    /// the scan failed) and the device's location at the start of the scan.
    static func startIndoorScan(
        _ geofenceId: String, forLength seconds: TimeInterval, withKnownLocation location: DeviceLocation?,
        completionHandler: @escaping @Sendable (String?, DeviceLocation?) -> Void)
}

/// Indoor's scan provider for location SDKs: register a scanner once, hand the SDK this type.
///
/// ```swift
/// IndoorScanProvider.register(scanner)                 // an IndoorScanner over the app's radio and venues
/// SomeLocationSDK.indoorProvider = IndoorScanProvider.self
/// // the SDK, near a geofence:
/// IndoorScanProvider.startIndoorScan("hq-building-a", forLength: 10, withKnownLocation: last) { json, start in
///     // json: {"accuracy":1.8,"beacons":6,...} or nil; start: the location at the start of the scan
/// }
/// ```
///
/// **Exactly once.** The completion handler is called exactly once for every call of ``startIndoorScan(_:forLength:withKnownLocation:completionHandler:)``:
/// with the JSON on success, with `nil` on every failure (no scanner registered, a length that is not a positive
/// number of seconds of at most ``longestScan``, an unknown geofence, nothing heard, too few beacons, not
/// authorised), on cancellation (``cancelAllScans()``, ``unregister()``) and when the live clock's duration ends the
/// scan before the sightings' clock does (the answer is then made from what was heard). It is called on the
/// `callbackQueue` given to ``register(_:callbackQueue:)`` (the main queue by default), never synchronously inside
/// the call. The second argument is the device's location at the start of the scan: the known location the scan was
/// started with, else the scan's first position (`nil` when there is neither).
///
/// The ``lastError`` says why the latest failed scan gave `nil`.
public enum IndoorScanProvider: IndoorScanProviding {
    /// The longest scan accepted, seconds.
    public static let longestScan: TimeInterval = 300

    /// Makes `scanner` answer the scans; the handlers are called on `callbackQueue`. Replaces an earlier
    /// registration (its running scans go on with the scanner they started with).
    public static func register(_ scanner: IndoorScanner, callbackQueue: DispatchQueue = .main) {
        state.withLock {
            $0.scanner = scanner
            $0.queue = callbackQueue
        }
    }

    /// Removes the registered scanner and cancels the running scans (their handlers get `nil`).
    public static func unregister() {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            state.scanner = nil
            return Array(state.tasks.values)
        }
        for task in tasks { task.cancel() }
    }

    /// The registered scanner, if any.
    public static var scanner: IndoorScanner? { state.withLock { $0.scanner } }

    /// Why the latest scan that answered `nil` failed.
    public static var lastError: ScanError? { state.withLock { $0.lastError } }

    /// How many scans started here are running now.
    package static var runningScans: Int { state.withLock { $0.tasks.count } }

    /// Cancels every running scan; each handler is called once, with `nil`.
    public static func cancelAllScans() {
        let tasks = state.withLock { Array($0.tasks.values) }
        for task in tasks { task.cancel() }
    }

    /// Scans `geofenceId` for `seconds` with the registered scanner and calls `completionHandler` exactly once, on
    /// the registered callback queue, with the result JSON (``ScanResult/json()``, `nil` when the scan failed) and
    /// the device's location at the start of the scan.
    ///
    /// - Parameters:
    ///   - geofenceId: A geofence id a registered venue declares.
    ///   - seconds: How long to listen, 0 < seconds ≤ ``longestScan``; typically 5 to 15.
    ///   - location: The device's last known location, or `nil`.
    ///   - completionHandler: Receives the JSON (or `nil`) and the start location.
    public static func startIndoorScan(
        _ geofenceId: String, forLength seconds: TimeInterval, withKnownLocation location: DeviceLocation?,
        completionHandler: @escaping @Sendable (String?, DeviceLocation?) -> Void
    ) {
        let (scanner, queue, id) = state.withLock { state -> (IndoorScanner?, DispatchQueue, Int) in
            state.nextID += 1
            return (state.scanner, state.queue, state.nextID)
        }
        let completion = CompletionOnce(queue: queue, handler: completionHandler)
        guard let scanner else {
            fail(ScanError(.invalidRequest, "no scanner is registered: call IndoorScanProvider.register first"))
            completion.call(nil, location)
            return
        }
        guard seconds.isFinite, seconds > 0, seconds <= longestScan else {
            fail(
                ScanError(.invalidRequest, "a scan lasts more than 0 and at most \(Int(longestScan)) s, not \(seconds)")
            )
            completion.call(nil, location)
            return
        }
        // The task is registered before it can finish, under the lock it removes itself with.
        state.withLock { shared in
            shared.tasks[id] = Task {
                var json: String?
                var start = location
                do {
                    let result = try await scanner.scan(
                        geofence: geofenceId, duration: .seconds(seconds), knownLocation: location)
                    json = result.json()
                    start = result.startLocation ?? location
                } catch {
                    fail(error as? ScanError ?? ScanError(.sourceFailed, "\(error)"))
                }
                _ = state.withLock { $0.tasks.removeValue(forKey: id) }
                completion.call(json, start)
            }
        }
    }

    private static func fail(_ error: ScanError) {
        state.withLock { $0.lastError = error }
    }

    // MARK: - Shared state

    private struct State {
        var scanner: IndoorScanner?
        var queue = DispatchQueue.main
        var tasks: [Int: Task<Void, Never>] = [:]
        var nextID = 0
        var lastError: ScanError?
    }

    private static let state = Locked(State())
}

/// A value behind a lock (`NSLock`: available on every platform the package supports).
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A completion handler that runs at most once, on its queue.
final class CompletionOnce: Sendable {
    private let queue: DispatchQueue
    private let handler: Locked<(@Sendable (String?, DeviceLocation?) -> Void)?>

    init(queue: DispatchQueue, handler: @escaping @Sendable (String?, DeviceLocation?) -> Void) {
        self.queue = queue
        self.handler = Locked(handler)
    }

    /// Calls the handler on the queue, the first time only. - Returns: whether this call was the first.
    @discardableResult
    func call(_ json: String?, _ location: DeviceLocation?) -> Bool {
        let taken = handler.withLock { handler -> (@Sendable (String?, DeviceLocation?) -> Void)? in
            defer { handler = nil }
            return handler
        }
        guard let taken else { return false }
        queue.async { taken(json, location) }
        return true
    }
}
