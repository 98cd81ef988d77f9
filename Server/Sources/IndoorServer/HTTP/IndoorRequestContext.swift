import Hummingbird
import NIOCore
import Synchronization

/// The context of each request to the server: Hummingbird's core context, the client's address (for the audit log
/// and the slowing of failed keys) and the ``RequestRecord`` the key check fills in.
public struct IndoorRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's address; `nil` when the request did not come over a socket (in-process tests).
    public let remoteAddress: SocketAddress?
    /// Who the request is from, once its key was checked.
    public let record: RequestRecord

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        record = RequestRecord()
    }

    /// The client's address as text (no port), `nil` when unknown.
    var clientAddress: String? {
        guard let remoteAddress else { return nil }
        return remoteAddress.ipAddress ?? remoteAddress.pathname
    }
}

/// What the key check learnt about one request: the key that was accepted. Shared by the middleware of the request
/// (a reference in the context, which is copied as it goes down the middleware).
public final class RequestRecord: Sendable {
    private let accepted = Mutex<StoredKey?>(nil)

    /// A record with no key yet.
    public init() {}

    /// The key the request was accepted with, `nil` before the check or without one.
    public var key: StoredKey? {
        get { accepted.withLock { $0 } }
        set { accepted.withLock { $0 = newValue } }
    }
}
