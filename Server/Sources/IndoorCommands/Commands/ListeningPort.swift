import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether the server's address is free, checked before the set-up that precedes listening.
enum ListeningPort {
    /// Throws ``CommandFailure`` naming `host`:`port` when another program listens there (or it cannot be used);
    /// nothing for port 0, which picks a free port.
    static func check(host: String, port: Int) throws {
        guard port != 0 else { return }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_PASSIVE
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
            throw CommandFailure("cannot listen on '\(host)': no such address; give another with --host")
        }
        defer { freeaddrinfo(found) }
        #if canImport(Glibc)
            let socket = Glibc.socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        #else
            let socket = Darwin.socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        #endif
        guard socket >= 0 else { return }
        defer { close(socket) }
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(socket, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let code = errno
            if code == EADDRINUSE {
                throw CommandFailure(
                    "port \(port) on \(host) is in use by another program: stop it, or give another port with "
                        + "--port (0 picks a free one)")
            }
            throw CommandFailure("cannot listen on \(host):\(port): \(String(cString: strerror(code)))")
        }
    }
}
