import NIOCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Caps the server's open connections, in total and per client address, so that clients that open connections and
/// hold them (half-sent requests, streams never read) cannot take every file descriptor: a connection over either
/// cap is closed as soon as it is accepted, and counted.
///
/// One limiter serves one listening server; ``handler()`` makes the channel handler each connection gets.
public final class ConnectionLimiter: Sendable {
    /// The most connections open at once.
    public let maximum: Int
    /// The most connections open at once from one address.
    public let maximumPerAddress: Int
    private let state = Mutex(State())
    private let metrics: ServerMetrics?

    struct State {
        var open = 0
        var byAddress: [String: Int] = [:]
        var refused = 0
    }

    /// A limiter of `maximum` connections in all and `maximumPerAddress` from one address, counting in `metrics`
    /// (`indoor_connections_open`, `indoor_connections_refused_total`) when given.
    public init(maximum: Int, maximumPerAddress: Int, metrics: ServerMetrics? = nil) {
        self.maximum = maximum
        self.maximumPerAddress = maximumPerAddress
        self.metrics = metrics
    }

    /// How many connections are open now, and how many were refused since the start.
    public var counts: (open: Int, refused: Int) {
        state.withLock { ($0.open, $0.refused) }
    }

    /// The handler that admits or closes one new connection (add it to each connection's pipeline).
    public func handler() -> any RemovableChannelHandler {
        Gate(limiter: self)
    }

    /// Takes a place for a connection from `address`; `false` when a cap is reached.
    func admit(_ address: String) -> Bool {
        let open = state.withLock { state -> Int? in
            let fromAddress = state.byAddress[address, default: 0]
            guard state.open < maximum, fromAddress < maximumPerAddress else {
                state.refused += 1
                return nil
            }
            state.open += 1
            state.byAddress[address] = fromAddress + 1
            return state.open
        }
        if let open { metrics?.connectionsOpen.record(open) } else { metrics?.connectionsRefused.increment() }
        return open != nil
    }

    /// Gives back the place of a connection from `address`.
    func release(_ address: String) {
        let open = state.withLock { state in
            state.open -= 1
            let left = state.byAddress[address, default: 1] - 1
            state.byAddress[address] = left > 0 ? left : nil
            return state.open
        }
        metrics?.connectionsOpen.record(open)
    }

    /// Raises this process's soft limit of open files to its hard limit (at most `ceiling`) where the system lets
    /// it; answers the soft limit in force afterwards (`nil` when it cannot be read).
    public static func raiseOpenFilesLimit(ceiling: UInt64 = 1 << 20) -> UInt64? {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return nil }
        let wanted = min(UInt64(limit.rlim_max), ceiling)
        if UInt64(limit.rlim_cur) < wanted {
            var raised = limit
            raised.rlim_cur = rlim_t(wanted)
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return UInt64(limit.rlim_cur)
    }

    /// Counts its connection in when added, out when the connection ends; closes it at once when over a cap.
    final class Gate: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
        typealias InboundIn = NIOAny
        let limiter: ConnectionLimiter
        /// The address this connection holds a place for, once admitted.
        private var holding: String?

        init(limiter: ConnectionLimiter) {
            self.limiter = limiter
        }

        func handlerAdded(context: ChannelHandlerContext) {
            let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
            if limiter.admit(address) {
                holding = address
            } else {
                context.close(promise: nil)
            }
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            if let holding { limiter.release(holding) }
            holding = nil
        }
    }
}
