import IndoorModel

/// The venue a scan of a geofence runs over, and where the known location puts the device in it.
///
/// Pure: the decision every front end (the scanner, the `indoor scan` command, an Apple app) relies on.
/// - Among the venues that declare the geofence id (``IndoorModel/Venue/geofences``), the one whose area
///   contains the known location is chosen; with none containing it, the nearest by its geo anchor; without a
///   known location, the first in the given order.
/// - The known location seeds the scan (``seed``) only when it is inside the chosen venue: on its floor outlines,
///   or, for a venue without outlines, within ``margin`` of the box around its nodes.
public struct ScanTarget: Hashable, Sendable {
    /// The geofence scanned.
    public var geofence: String
    /// The venue that serves it.
    public var venue: Venue
    /// The known location in the venue's frame (metres), when it is inside the venue.
    public var seed: Point2D?
    /// The known location's accuracy in metres, when it seeds the scan and its accuracy is known.
    public var seedAccuracy: Double?

    /// Metres around the box of a venue's nodes that still count as inside a venue without floor outlines.
    package static let margin = 10.0

    /// The target of a scan of `geofence`.
    ///
    /// - Parameters:
    ///   - geofence: A geofence id.
    ///   - venues: The venues known to the app or server.
    ///   - knownLocation: The device's last known location, if any (an invalid one is ignored).
    /// - Throws: ``ScanError`` with code `unknownGeofence` when no venue declares `geofence`.
    public init(geofence: String, venues: [Venue], knownLocation: DeviceLocation? = nil) throws {
        let serving = venues.filter { $0.geofences.contains(geofence) }
        guard let first = serving.first else {
            let known = Set(venues.flatMap(\.geofences)).sorted()
            let list =
                known.isEmpty
                ? "no venue declares any: a venue serves the ids in its JSON's \"geofences\", "
                    + "as in \"geofences\": [\"\(geofence)\"]"
                : "known: \(known.joined(separator: ", "))"
            throw ScanError(.unknownGeofence, "no venue serves geofence '\(geofence)' (\(list))")
        }
        self.geofence = geofence
        let known = knownLocation.flatMap { $0.isValid ? $0 : nil }
        guard let known else {
            venue = first
            return
        }
        let inside = serving.first {
            Self.local(known, in: $0).map { Self.contains($0.point, venue: $0.venue) } ?? false
        }
        if let inside {
            venue = inside
            seed = Self.local(known, in: inside)?.point
            seedAccuracy = known.usableAccuracy
            return
        }
        // Outside every serving venue: the nearest anchored one, else the first.
        let distances = serving.compactMap { venue in
            venue.anchor.map { (venue, $0.point(of: known.coordinate).distance(to: Point2D(x: 0, y: 0))) }
        }
        venue = distances.min { $0.1 < $1.1 }?.0 ?? first
    }

    /// The known location in `venue`'s frame, when the venue has an anchor.
    private static func local(_ location: DeviceLocation, in venue: Venue) -> (venue: Venue, point: Point2D)? {
        guard let anchor = venue.anchor else { return nil }
        return (venue, anchor.point(of: location.coordinate))
    }

    /// Whether `point` (metres in the venue frame) is inside `venue`.
    public static func contains(_ point: Point2D, venue: Venue) -> Bool {
        let outlined = venue.floors.filter(\.hasOutline)
        if !outlined.isEmpty { return outlined.contains { $0.contains(point) } }
        let xs = venue.nodes.map(\.position.x)
        let ys = venue.nodes.map(\.position.y)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return false }
        return point.x >= minX - margin && point.x <= maxX + margin && point.y >= minY - margin
            && point.y <= maxY + margin
    }
}
