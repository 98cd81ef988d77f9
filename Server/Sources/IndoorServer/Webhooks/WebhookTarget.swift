import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A webhook's target checked: an `http` or `https` URL with a host, without credentials, whose host resolves, and
/// (unless private targets are allowed) to public addresses only: every address the host resolves to is checked, at
/// creation and again before each delivery (a name that later resolves elsewhere is refused then).
public enum WebhookTarget {
    /// Why a target is refused: a stable code and a message.
    public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        /// `invalidURL`, `unsupportedScheme`, `unresolvableHost` or `privateTarget`.
        public var code: String
        public var message: String
        public var description: String { message }
    }

    /// Checks `text` as a target.
    /// - Returns: The URL.
    /// - Throws: ``Refusal``.
    public static func check(_ text: String, allowPrivate: Bool) async throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty
        else {
            throw Refusal(
                code: "invalidURL", message: "url '\(text)' is not an absolute URL such as https://example.com/hook")
        }
        guard scheme == "http" || scheme == "https" else {
            throw Refusal(
                code: "unsupportedScheme", message: "url scheme '\(scheme)' is not supported: use http or https")
        }
        guard url.user == nil, url.password == nil else {
            throw Refusal(
                code: "invalidURL",
                message: "url must not carry credentials: the deliveries are signed with the hook's secret instead")
        }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let addresses = try await resolve(bare)
        if !allowPrivate, let address = addresses.first(where: { !isPublic($0) }) {
            throw Refusal(
                code: "privateTarget",
                message: "url host '\(host)' resolves to \(describe(address)), a private, loopback or link-local "
                    + "address; such targets are refused unless the server runs with --webhook-allow-private")
        }
        return url
    }

    /// The addresses `host` resolves to, as raw bytes (4 for IPv4, 16 for IPv6).
    static func resolve(_ host: String) async throws -> [[UInt8]] {
        try await Task.detached {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            #if canImport(Glibc)
                hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            #else
                hints.ai_socktype = SOCK_STREAM
            #endif
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, nil, &hints, &list)
            guard status == 0, let first = list else {
                throw Refusal(
                    code: "unresolvableHost",
                    message: "url host '\(host)' does not resolve: \(String(cString: gai_strerror(status)))")
            }
            defer { freeaddrinfo(first) }
            var addresses: [[UInt8]] = []
            var node: UnsafeMutablePointer<addrinfo>? = first
            while let entry = node {
                if let address = entry.pointee.ai_addr {
                    if entry.pointee.ai_family == AF_INET {
                        address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                            var value = pointer.pointee.sin_addr
                            addresses.append(withUnsafeBytes(of: &value) { Array($0) })
                        }
                    } else if entry.pointee.ai_family == AF_INET6 {
                        address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                            var value = pointer.pointee.sin6_addr
                            addresses.append(withUnsafeBytes(of: &value) { Array($0) })
                        }
                    }
                }
                node = entry.pointee.ai_next
            }
            guard !addresses.isEmpty else {
                throw Refusal(code: "unresolvableHost", message: "url host '\(host)' has no IPv4 or IPv6 address")
            }
            return addresses
        }.value
    }

    /// Whether `address` (4 or 16 bytes) is a public unicast address: not unspecified, loopback, private (RFC 1918,
    /// unique local), shared (100.64/10), link-local, multicast or reserved.
    static func isPublic(_ address: [UInt8]) -> Bool {
        if address.count == 4 { return isPublicIPv4(address) }
        guard address.count == 16 else { return false }
        // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) addresses are their IPv4 address's.
        if address[0..<10].allSatisfy({ $0 == 0 }) && address[10] == 0xff && address[11] == 0xff {
            return isPublicIPv4(Array(address[12..<16]))
        }
        if address[0..<12].allSatisfy({ $0 == 0 }) { return false }  // ::, ::1 and the deprecated compatible ones
        let first = address[0]
        let second = address[1]
        if first == 0xfe && (second & 0xc0) == 0x80 { return false }  // fe80::/10 link-local
        if (first & 0xfe) == 0xfc { return false }  // fc00::/7 unique local
        if first == 0xff { return false }  // multicast
        if first == 0x00 && second == 0x64 && address[2] == 0xff && address[3] == 0x9b {
            return isPublicIPv4(Array(address[12..<16]))  // 64:ff9b::/96, NAT64 of an IPv4 address
        }
        return true
    }

    private static func isPublicIPv4(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 4 else { return false }
        let (a, b) = (bytes[0], bytes[1])
        switch a {
        case 0, 10, 127: return false
        case 100 where (64...127).contains(b): return false
        case 169 where b == 254: return false
        case 172 where (16...31).contains(b): return false
        case 192 where b == 168: return false
        case 192 where b == 0 && bytes[2] == 0: return false
        case 198 where b == 18 || b == 19: return false
        case 224...255: return false
        default: return true
        }
    }

    /// `address` written out (dotted IPv4, or IPv6 in hex groups).
    static func describe(_ address: [UInt8]) -> String {
        if address.count == 4 { return address.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: address.count - 1, by: 2).map {
            String(UInt16(address[$0]) << 8 | UInt16(address[$0 + 1]), radix: 16)
        }.joined(separator: ":")
    }
}
