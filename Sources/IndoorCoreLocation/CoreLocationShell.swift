// The Apple-only shell: CoreLocation in, the session's sightings out; the session's answers back as CLLocation.
// It holds no logic of its own: every decision is in the platform-free files of this target (RangedBeaconReading,
// AuthorizationPolicy, RegionBudget, MonitoredCondition), built and tested on Linux. On Linux this file is compiled
// by the IndoorCoreLocationShellTests target against CoreLocationShim (the API surface it uses), with
// INDOOR_CORELOCATION_SHIM defined; so it may use only the public API of IndoorCoreLocation. See docs/SCAN.md.
#if canImport(CoreLocation) || INDOOR_CORELOCATION_SHIM
    #if canImport(CoreLocation)
        import CoreLocation
    #else
        import CoreLocationShim
    #endif
    import Foundation
    import IndoorModel
    import IndoorSession
    #if INDOOR_CORELOCATION_SHIM
        import IndoorCoreLocation
    #endif

    /// Ranges beacons with CoreLocation and hands the readings out as sightings, for ``IndoorScanner`` or a
    /// ``LocationSessionRunner``; reports authorisation changes. Create it on the main actor.
    @MainActor
    public final class CoreLocationBeaconSource: NSObject, CLLocationManagerDelegate {
        private let manager = CLLocationManager()
        private let conditions: [BeaconCondition]
        private let device: String
        private var authorization: LocationAuthorization?
        private var streams: [UUID: AsyncStream<Sighting>.Continuation] = [:]
        /// Told of every authorisation change; give it to ``IndoorScanner/setAuthorization(_:)``.
        public var onAuthorization: (LocationAuthorization) -> Void = { _ in }

        /// A source ranging `conditions` (at most ``RegionBudget/platformLimit`` after ``RegionBudget``), naming the
        /// phone `device` in its sightings.
        public init(conditions: [BeaconCondition], device: String = "phone") {
            self.conditions = RegionBudget().plan(conditions).monitored
            self.device = device
            super.init()
            manager.delegate = self
        }

        /// A new stream of sightings; ranging runs while at least one stream is open. Callable from any context
        /// (the scanner opens its source off the main actor).
        nonisolated public func sightings() -> AsyncStream<Sighting> {
            let (stream, continuation) = AsyncStream.makeStream(of: Sighting.self)
            let id = UUID()
            continuation.onTermination = { _ in Task { @MainActor [weak self] in self?.close(id) } }
            Task { @MainActor in self.open(id, continuation) }
            return stream
        }

        private func open(_ id: UUID, _ continuation: AsyncStream<Sighting>.Continuation) {
            streams[id] = continuation
            if streams.count == 1, authorization?.allowsScanning == true { startRanging() }
        }

        private func close(_ id: UUID) {
            streams[id] = nil
            if streams.isEmpty { stopRanging() }
        }

        private func startRanging() {
            for condition in conditions { manager.startRangingBeacons(satisfying: Self.constraint(condition)) }
        }

        private func stopRanging() {
            for condition in conditions { manager.stopRangingBeacons(satisfying: Self.constraint(condition)) }
        }

        private static func constraint(_ condition: BeaconCondition) -> CLBeaconIdentityConstraint {
            switch (condition.major, condition.minor) {
            case (let major?, let minor?): CLBeaconIdentityConstraint(uuid: condition.uuid, major: major, minor: minor)
            case (let major?, nil): CLBeaconIdentityConstraint(uuid: condition.uuid, major: major)
            default: CLBeaconIdentityConstraint(uuid: condition.uuid)
            }
        }

        private func apply(_ new: LocationAuthorization) {
            for action in AuthorizationPolicy.actions(from: authorization, to: new) {
                switch action {
                case .requestWhenInUse: manager.requestWhenInUseAuthorization()
                case .startRanging: if !streams.isEmpty { startRanging() }
                case .stopRanging: stopRanging()
                case .updateScanner(let value): onAuthorization(value)
                }
            }
            authorization = new
        }

        nonisolated public func locationManager(
            _ manager: CLLocationManager, didRange beacons: [CLBeacon],
            satisfying beaconConstraint: CLBeaconIdentityConstraint
        ) {
            let readings = beacons.map {
                RangedBeaconReading(
                    uuid: $0.uuid, major: $0.major.uint16Value, minor: $0.minor.uint16Value, rssi: $0.rssi,
                    accuracy: $0.accuracy, timestamp: $0.timestamp.timeIntervalSince1970)
            }
            MainActor.assumeIsolated {
                let sightings = readings.compactMap { $0.sighting(device: device) }
                for continuation in streams.values {
                    for sighting in sightings { continuation.yield(sighting) }
                }
            }
        }

        nonisolated public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
            let status = manager.authorizationStatus
            MainActor.assumeIsolated { apply(Self.authorization(status)) }
        }

        /// CoreLocation's status in the session's words.
        nonisolated static func authorization(_ status: CLAuthorizationStatus) -> LocationAuthorization {
            switch status {
            case .notDetermined: .notDetermined
            case .restricted: .restricted
            case .denied: .denied
            case .authorizedAlways: .always
            case .authorizedWhenInUse: .whenInUse
            @unknown default: .denied
            }
        }
    }

    /// Monitors beacon-identity conditions with `CLMonitor` and reports enter and exit as ``MonitoredCondition/Event``.
    public enum CoreLocationRegionMonitor {
        /// Adds the conditions (fitted to ``RegionBudget``) to a monitor named `name` and streams its events.
        public static func events(name: String, conditions: [BeaconCondition]) -> AsyncStream<MonitoredCondition.Event>
        {
            AsyncStream { continuation in
                let task = Task {
                    let monitor = await CLMonitor(name)
                    for condition in RegionBudget().plan(conditions).monitored {
                        await monitor.add(
                            beaconCondition(condition), identifier: MonitoredCondition.identifier(condition),
                            assuming: .unsatisfied)
                    }
                    do {
                        for try await event in await monitor.events {
                            let satisfied: Bool? =
                                event.state == .satisfied ? true : event.state == .unsatisfied ? false : nil
                            if let translated = MonitoredCondition.event(
                                identifier: event.identifier, satisfied: satisfied, date: event.date)
                            {
                                continuation.yield(translated)
                            }
                        }
                    } catch {}
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }

        private static func beaconCondition(_ condition: BeaconCondition) -> CLMonitor.BeaconIdentityCondition {
            switch (condition.major, condition.minor) {
            case (let major?, let minor?):
                CLMonitor.BeaconIdentityCondition(uuid: condition.uuid, major: major, minor: minor)
            case (let major?, nil): CLMonitor.BeaconIdentityCondition(uuid: condition.uuid, major: major)
            default: CLMonitor.BeaconIdentityCondition(uuid: condition.uuid)
            }
        }
    }

    /// Indoor's scan provider in exactly the shape location SDKs declare an indoor provider, with CoreLocation's
    /// types: register a scanner with ``IndoorSession/IndoorScanProvider/register(_:callbackQueue:)`` and hand the
    /// SDK this type; no adapter code in the app.
    ///
    /// It converts the known `CLLocation` in (``IndoorSession/DeviceLocation/init(coreLocationLatitude:longitude:horizontalAccuracy:floorLevel:timestamp:)``)
    /// and the start location out (``IndoorCLLocation``, with its floor), and otherwise is
    /// ``IndoorSession/IndoorScanProvider``: the completion handler is called exactly once, on the registered
    /// callback queue, with the result JSON or `nil`.
    public enum IndoorCLScanProvider {
        /// Scans `geofenceId` for `forLength` seconds and calls `completionHandler` once with the result JSON (`nil`
        /// when the scan failed: ``IndoorSession/IndoorScanProvider/lastError`` says why) and the device's location
        /// at the start of the scan.
        public static func startIndoorScan(
            _ geofenceId: String, forLength length: Int32, withKnownLocation location: CLLocation?,
            completionHandler: @escaping (String?, CLLocation?) -> Void
        ) {
            let known = location.flatMap { location in
                DeviceLocation(
                    coreLocationLatitude: location.coordinate.latitude, longitude: location.coordinate.longitude,
                    horizontalAccuracy: location.horizontalAccuracy, floorLevel: location.floor?.level,
                    timestamp: location.timestamp)
            }
            // Called once, on the callback queue the app registered (the main queue by default).
            nonisolated(unsafe) let handler = completionHandler
            IndoorScanProvider.startIndoorScan(
                geofenceId, forLength: TimeInterval(length), withKnownLocation: known
            ) { json, start in
                handler(json, start.map { IndoorCLLocation($0) })
            }
        }
    }

    /// A `CLLocation` that carries a floor (CoreLocation offers no initialiser with one).
    public final class IndoorCLLocation: CLLocation {
        private let level: Int?

        /// The location of a fix or scan result (``IndoorSession/DeviceLocation``), with its floor.
        public init(_ location: DeviceLocation) {
            level = location.floor
            super.init(
                coordinate: CLLocationCoordinate2D(latitude: location.latitude, longitude: location.longitude),
                altitude: 0, horizontalAccuracy: location.horizontalAccuracy ?? -1, verticalAccuracy: -1,
                timestamp: Date(timeIntervalSince1970: location.timestamp ?? Date().timeIntervalSince1970))
        }

        required init?(coder: NSCoder) {
            level = nil
            super.init(coder: coder)
        }

        override public var floor: CLFloor? { level.map(IndoorCLFloor.init) }
    }

    /// A `CLFloor` with a given level.
    final class IndoorCLFloor: CLFloor {
        private let value: Int
        init(_ level: Int) {
            value = level
            super.init()
        }
        required init?(coder: NSCoder) {
            value = 0
            super.init(coder: coder)
        }
        override var level: Int { value }
    }
#endif
