// Exactly the CoreLocation API surface that Sources/IndoorCoreLocation/CoreLocationShell.swift uses, declared for
// Linux so that CI type-checks the shell (IndoorCoreLocationShellTests). Signatures follow Apple's documentation
// (iOS 17 / macOS 14); the bodies do nothing useful. Add a declaration here when the shell uses a new API.
import Foundation

public typealias CLLocationDegrees = Double
public typealias CLLocationAccuracy = Double
public typealias CLLocationDistance = Double
public typealias CLBeaconMajorValue = UInt16
public typealias CLBeaconMinorValue = UInt16

public struct CLLocationCoordinate2D: Sendable {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

public enum CLAuthorizationStatus: Int32, Sendable {
    case notDetermined = 0
    case restricted = 1
    case denied = 2
    case authorizedAlways = 3
    case authorizedWhenInUse = 4
}

public enum CLProximity: Int, Sendable {
    case unknown, immediate, near, far
}

open class CLBeaconIdentityConstraint: NSObject {
    public let uuid: UUID
    public let major: CLBeaconMajorValue?
    public let minor: CLBeaconMinorValue?
    public init(uuid: UUID) {
        (self.uuid, major, minor) = (uuid, nil, nil)
    }
    public init(uuid: UUID, major: CLBeaconMajorValue) {
        (self.uuid, self.major, minor) = (uuid, major, nil)
    }
    public init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue) {
        (self.uuid, self.major, self.minor) = (uuid, major, minor)
    }
}

open class CLBeacon: NSObject {
    open var uuid = UUID()
    open var major = NSNumber(value: 0)
    open var minor = NSNumber(value: 0)
    open var proximity = CLProximity.unknown
    open var accuracy: CLLocationAccuracy = -1
    open var rssi = 0
    open var timestamp = Date(timeIntervalSince1970: 0)
}

open class CLFloor: NSObject {
    open var level: Int { 0 }
    override public init() {}
    public required init?(coder: NSCoder) {}
}

open class CLLocation: NSObject {
    public let coordinate: CLLocationCoordinate2D
    public let horizontalAccuracy: CLLocationAccuracy
    public let timestamp: Date
    open var floor: CLFloor? { nil }
    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, timestamp: Date
    ) {
        self.coordinate = coordinate
        self.horizontalAccuracy = hAccuracy
        self.timestamp = timestamp
    }
    public required init?(coder: NSCoder) { nil }
}

public protocol CLLocationManagerDelegate: AnyObject {
    func locationManager(
        _ manager: CLLocationManager, didRange beacons: [CLBeacon],
        satisfying beaconConstraint: CLBeaconIdentityConstraint)
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
}

extension CLLocationManagerDelegate {
    public func locationManager(
        _ manager: CLLocationManager, didRange beacons: [CLBeacon],
        satisfying beaconConstraint: CLBeaconIdentityConstraint
    ) {}
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {}
}

open class CLLocationManager: NSObject {
    open weak var delegate: (any CLLocationManagerDelegate)?
    open var authorizationStatus: CLAuthorizationStatus { .notDetermined }
    open func requestWhenInUseAuthorization() {}
    open func startRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint) {}
    open func stopRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint) {}
}

public protocol CLCondition: Sendable {}

public actor CLMonitor {
    public struct BeaconIdentityCondition: CLCondition {
        public var uuid: UUID
        public var major: CLBeaconMajorValue?
        public var minor: CLBeaconMinorValue?
        public init(uuid: UUID) { self.uuid = uuid }
        public init(uuid: UUID, major: CLBeaconMajorValue) { (self.uuid, self.major) = (uuid, major) }
        public init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue) {
            (self.uuid, self.major, self.minor) = (uuid, major, minor)
        }
    }

    public struct Event: Sendable {
        public enum State: Sendable {
            case unknown, satisfied, unsatisfied, unmonitored
        }
        public var identifier: String
        public var state: State
        public var date: Date
    }

    public struct Events: AsyncSequence, Sendable {
        public typealias Element = Event
        public struct AsyncIterator: AsyncIteratorProtocol {
            public mutating func next() async throws -> Event? { nil }
        }
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
    }

    public init(_ name: String) async {}
    public func add(_ condition: any CLCondition, identifier: String, assuming state: Event.State) {}
    public var events: Events { Events() }
}
