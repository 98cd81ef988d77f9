/// What changed in the peer directory.
public enum PeerEvent: Hashable, Sendable {
    /// The first piece of data about a peer arrived.
    case appeared(Peer)
    /// A known peer was heard or its session data changed.
    case updated(Peer)
    /// A peer was neither heard nor updated for the timeout.
    case expired(Peer)
}
