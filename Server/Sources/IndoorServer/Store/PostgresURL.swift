import Foundation

/// Where a PostgreSQL database is and how to reach it: `postgres://user@host:port/dbname?sslmode=…`.
///
/// `postgresql://` is the same. The port is 5432 unless given; the database is the user's name unless given.
/// `sslmode` is `disable` (no TLS), `prefer` (TLS when the server offers it, the certificate not checked), `require`
/// (TLS or no connection, the certificate not checked: the same as libpq's `require`) or `verify-full` (TLS, and the
/// certificate checked against the system's trust roots, or the PEM file of `sslrootcert=`, and the host name). Without
/// `sslmode`, a loopback host (`localhost`, `127.0.0.1`, `::1`) is `disable` and any other host `prefer`.
///
/// The password is best given by `INDOOR_DATABASE_PASSWORD` (``init(_:environmentPassword:)``'s second argument),
/// which wins over one in the URL (`user:password@host`): a URL is printed and logged, a variable is not.
/// ``description`` never shows the password.
package struct PostgresURL: Hashable, Sendable, CustomStringConvertible {
    /// How the connection is encrypted.
    package enum TLSMode: String, Hashable, Sendable, CaseIterable {
        case disable
        case prefer
        case require
        case verifyFull = "verify-full"
    }

    package var host: String
    package var port: Int
    package var user: String
    package var password: String?
    package var database: String
    package var tls: TLSMode
    /// A PEM file of the certificates to trust for `verify-full` (`sslrootcert=`); the system's roots without it.
    package var rootCertificates: String?

    /// Whether `text` names a PostgreSQL database (begins `postgres://` or `postgresql://`), not a SQLite file.
    package static func isPostgres(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// Reads a `postgres://` URL.
    /// - Parameters:
    ///   - text: The URL.
    ///   - environmentPassword: `INDOOR_DATABASE_PASSWORD`, which wins over a password in the URL.
    /// - Throws: ``StoreError`` naming what is wrong in the URL (never repeating a password).
    package init(_ text: String, environmentPassword: String? = nil) throws {
        guard Self.isPostgres(text), let components = URLComponents(string: text), let host = components.host,
            !host.isEmpty
        else {
            throw StoreError(
                "'\(Self.redacted(text))' is not a PostgreSQL URL: expected postgres://user@host:port/dbname "
                    + "(the password in INDOOR_DATABASE_PASSWORD)")
        }
        guard let user = components.percentEncodedUser?.removingPercentEncoding, !user.isEmpty else {
            throw StoreError(
                "'\(Self.redacted(text))' names no user: expected postgres://user@host:port/dbname")
        }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw StoreError("the port \(port) is not in 1...65535") }
        self.user = user
        let urlPassword = components.percentEncodedPassword?.removingPercentEncoding
        password = environmentPassword ?? urlPassword
        var path = components.percentEncodedPath
        if path.hasPrefix("/") { path.removeFirst() }
        guard !path.contains("/") else {
            throw StoreError("'\(Self.redacted(text))': the database name '\(path)' has a '/'; give one name")
        }
        database = path.removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 } ?? user
        let loopback = ["localhost", "127.0.0.1", "::1"].contains(self.host.lowercased())
        tls = loopback ? .disable : .prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init) else {
                    throw StoreError(
                        "sslmode '\(item.value ?? "")' is not one of "
                            + TLSMode.allCases.map(\.rawValue).joined(separator: ", "))
                }
                tls = mode
            case "sslrootcert":
                rootCertificates = item.value
            default:
                throw StoreError(
                    "'\(item.name)' in the database URL is not known: only sslmode and sslrootcert are read")
            }
        }
    }

    /// `postgres://user@host:port/dbname`, with `?sslmode=` when TLS is asked for; never the password.
    package var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let mode = tls == .disable ? "" : "?sslmode=\(tls.rawValue)"
        return "postgres://\(user)@\(shownHost):\(port)/\(database)\(mode)"
    }

    /// `host:port`, as a message names the server.
    package var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// `text` with the password of its `user:password@` part replaced by `***`.
    package static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@") else {
            return text
        }
        let credentials = text[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return text }
        return text[..<colon] + ":***" + text[at...]
    }
}
