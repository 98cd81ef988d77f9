/// What changed in the peer directory.
public enum PeerEvent: Hashable, Sendable {
    /// The first piece of data about a peer arrived (a sighting or session data).
    case appeared(Peer)
    /// A known peer was heard or its session data changed.
    case updated(Peer)
    /// A session member's beacon has not been heard for the directory's timeout: its ``Peer/distance`` and
    /// ``Peer/proximity`` are now unknown (`nil`); its identity stays until it leaves the session. The next
    /// sighting brings an ``updated(_:)`` with a distance again.
    case lostSignal(Peer)
    /// The peer left the session (``PeerDirectory/left(_:at:)``); it is no longer in the directory.
    case left(Peer)
    /// The peer is no longer in the directory: it was only heard, never in the session, and has not been heard
    /// for the timeout; or the directory was full (``PeerDirectory/maximumPeers``) and it was the least recently
    /// updated.
    case expired(Peer)
}
