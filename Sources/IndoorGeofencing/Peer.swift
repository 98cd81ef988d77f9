import Foundation
import IndoorModel

/// Another phone, as far as this one knows it: how near it is, and who it says it is.
public struct Peer: Hashable, Sendable {
    /// Its `major/minor`.
    public var key: PeerKey
    /// From the session: the name the peer shows.
    public var displayName: String?
    /// From the session: the peer's picture, encoded bytes (for example JPEG).
    public var picture: Data?
    /// From ranging: estimated distance, metres.
    public var distance: Double?
    /// From ranging: proximity class.
    public var proximity: Proximity?
    /// When the peer was last heard as a beacon, seconds; `nil` before it is heard.
    public var lastHeard: Double?
    /// When anything about the peer last arrived (a sighting or session data), seconds.
    public var lastUpdate: Double

    /// A peer: `distance` in metres, times in seconds.
    public init(
        key: PeerKey, displayName: String? = nil, picture: Data? = nil, distance meters: Double? = nil,
        proximity: Proximity? = nil, lastHeard: Double? = nil, lastUpdate: Double
    ) {
        self.key = key
        self.displayName = displayName
        self.picture = picture
        self.distance = meters
        self.proximity = proximity
        self.lastHeard = lastHeard
        self.lastUpdate = lastUpdate
    }
}
