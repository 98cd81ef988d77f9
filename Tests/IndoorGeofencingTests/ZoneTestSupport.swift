import Foundation
import IndoorModel

@testable import IndoorGeofencing

/// A fix of `device` at (x, y) metres, time `t` seconds.
func fix(_ t: Double, x: Double, y: Double = 0, accuracy: Double = 1, floor: Int? = nil, device: String = "phone")
    -> Fix
{
    Fix(
        time: t, device: device, position: Point3D(x: x, y: y, z: 0), floor: floor, accuracy: accuracy,
        confidence: 0.5, method: "test")
}

/// A ranging update of node `node` heard by `device` at `proximity`.
func ranging(_ t: Double, node: String, _ proximity: Proximity, device: String = "phone") -> RangedBeacon {
    let distance: Double =
        switch proximity {
        case .immediate: 0.3
        case .near: 2
        case .far: 8
        case .unknown: .infinity
        }
    return RangedBeacon(
        time: t, device: device, source: .node(node), rssi: -70, distance: distance, proximity: proximity)
}

/// A circle zone of radius 5 m around the origin.
func circleZone(
    checkOut: Bool = true, margin: Double = 1, checkOutTime: Double = 5, dwell: Double? = nil,
    retrigger: Double = 0, enabled: Bool = true
) -> Zone {
    Zone(
        id: "room", name: "Meeting room", fences: [.circle(center: Point2D(x: 0, y: 0), radius: 5)],
        checkOutEnabled: checkOut, checkOutMargin: margin, checkOutTime: checkOutTime, dwellThreshold: dwell,
        retriggerTime: retrigger, data: ["owner": "facilities"], isEnabled: enabled)
}

extension ZoneEngine {
    /// Feeds fixes in order and collects every event.
    mutating func run(_ fixes: [Fix]) -> [ZoneEvent] {
        fixes.flatMap { update(with: $0) }
    }

    /// Feeds ranging updates in order and collects every event.
    mutating func run(_ rangings: [RangedBeacon]) -> [ZoneEvent] {
        rangings.flatMap { update(with: $0) }
    }
}

/// A compact description of events for exact comparisons: `checkIn@0`, `checkOut@65`.
func summary(_ events: [ZoneEvent]) -> [String] {
    events.map { event in
        let time = event.time == event.time.rounded() ? String(Int(event.time)) : String(event.time)
        return "\(event.kind.rawValue)@\(time)"
    }
}
