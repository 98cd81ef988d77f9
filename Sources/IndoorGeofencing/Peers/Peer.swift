import Foundation
import IndoorModel

/// Another phone, as far as this one knows it: how near it is, and who it says it is.
///
/// Its identity (``displayName``, ``picture``) belongs to its session membership and stays while it is a
/// member; its ``distance`` and ``proximity`` belong to sightings of its beacon and become unknown (`nil`) when
/// the beacon goes silent.
public struct Peer: Hashable, Sendable {
    /// Its `major/minor`.
    public var key: PeerKey
    /// From the session: the name the peer shows.
    public var displayName: String?
    /// From the session: the peer's picture, encoded bytes (for example JPEG).
    public var picture: Data?
    /// Whether session data about the peer arrived (and it has not left the session since): a member keeps its
    /// identity when its beacon goes silent.
    public var isSessionMember: Bool
    /// From ranging: estimated distance, metres; `nil` before the beacon is heard, when its distance could not
    /// be estimated, and after it has been silent for the directory's timeout.
    public var distance: Double?
    /// From ranging: proximity class; `nil` when ``distance`` is unknown because the beacon was not heard
    /// recently (or ever).
    public var proximity: Proximity?
    /// When the peer was last heard as a beacon, seconds; `nil` before it is heard.
    public var lastHeard: Double?
    /// When anything about the peer last arrived (a sighting or session data), seconds.
    public var lastUpdate: Double

    /// A peer: `distance` in metres, times in seconds.
    public init(
        key: PeerKey, displayName: String? = nil, picture: Data? = nil, isSessionMember: Bool = false,
        distance meters: Double? = nil, proximity: Proximity? = nil, lastHeard: Double? = nil, lastUpdate: Double
    ) {
        self.key = key
        self.displayName = displayName
        self.picture = picture
        self.isSessionMember = isSessionMember
        self.distance = meters
        self.proximity = proximity
        self.lastHeard = lastHeard
        self.lastUpdate = lastUpdate
    }
}
