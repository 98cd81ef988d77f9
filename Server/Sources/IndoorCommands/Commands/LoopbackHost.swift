import Foundation

/// Whether a host name or address stays on this machine: `localhost`, `127.x.x.x` or `::1`. Used to warn when the
/// server listens, or talks to a broker, in plain text beyond it.
enum LoopbackHost {
    /// Whether `host` is a loopback name or address (brackets around an IPv6 address are allowed).
    static func contains(_ host: String) -> Bool {
        let bare = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return bare == "localhost" || bare.hasSuffix(".localhost") || bare == "::1" || bare.hasPrefix("127.")
    }
}
