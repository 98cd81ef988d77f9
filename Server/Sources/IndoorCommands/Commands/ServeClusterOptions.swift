import ArgumentParser
import Foundation
import IndoorServer

/// `indoor serve`'s options for running as one of several instances sharing a PostgreSQL database.
struct ServeClusterOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Run as instance NAME of a cluster sharing the PostgreSQL --database (INDOOR_INSTANCE).",
            discussion: """
                Each venue's session then runs on one instance at a time, held by a lease in the database; every \
                instance answers every route, sending sightings and device reads for a venue running elsewhere to \
                its instance. When an instance stops, the others take its venues within about --lease-seconds plus \
                a quarter of it. Names are unique in the cluster; a restarted instance keeps its name. See \
                docs/DEPLOY.md, Several instances.
                """,
            valueName: "name"))
    var instance: String?

    @Option(
        help: ArgumentHelp(
            "Where the other instances reach this one, e.g. http://10.0.0.5:8080 (INDOOR_ADVERTISE_URL; default: "
                + "this server's scheme, --host and --port; needed when --host is 0.0.0.0 or ::).",
            valueName: "url"))
    var advertiseURL: String?

    @Option(
        help:
            "With --instance: how long a venue's lease lasts unless renewed, seconds (INDOOR_LEASE_SECONDS; default 8)."
    )
    var leaseSeconds: Double?

    /// The cluster identity these options give, or `nil` without `--instance`.
    /// - Throws: `ValidationError` naming the option when the values do not fit together.
    func identity(database: String, host: String, port: Int, scheme: String) throws -> ClusterIdentity? {
        guard let instance = instance ?? Self.environment("INDOOR_INSTANCE") else {
            if advertiseURL != nil || leaseSeconds != nil {
                throw ValidationError("--advertise-url and --lease-seconds are for a cluster: give --instance NAME too")
            }
            return nil
        }
        guard !instance.isEmpty, instance.count <= 128, !instance.contains(where: \.isWhitespace) else {
            throw ValidationError("--instance '\(instance)': give a name of 1 to 128 characters without spaces")
        }
        guard PostgresURL.isPostgres(database) else {
            throw ValidationError(
                "--instance: a cluster shares a PostgreSQL database; give --database postgres://user@host:port/db "
                    + "(a SQLite file belongs to one server)")
        }
        let seconds =
            try leaseSeconds ?? Self.environment("INDOOR_LEASE_SECONDS").map {
                guard let value = Double($0) else {
                    throw ValidationError("INDOOR_LEASE_SECONDS '\($0)' is not a number")
                }
                return value
            } ?? ClusterIdentity.defaultLeaseSeconds
        guard seconds.isFinite, (2...300).contains(seconds) else {
            throw ValidationError("--lease-seconds must be 2...300 seconds")
        }
        let url: String
        if let given = advertiseURL ?? Self.environment("INDOOR_ADVERTISE_URL") {
            guard let parsed = URL(string: given), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil,
                parsed.path.isEmpty || parsed.path == "/"
            else {
                throw ValidationError("--advertise-url '\(given)': expected http(s)://HOST:PORT, without a path")
            }
            url = given.hasSuffix("/") ? String(given.dropLast()) : given
        } else {
            guard !["0.0.0.0", "::", ""].contains(host) else {
                throw ValidationError(
                    "--instance with --host \(host): give --advertise-url, the address the other instances reach "
                        + "this one at (e.g. http://10.0.0.5:\(port))")
            }
            guard port != 0 else {
                throw ValidationError("--instance needs a fixed --port (or --advertise-url): the others must reach it")
            }
            url = "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        }
        return ClusterIdentity(instance: instance, url: url, leaseSeconds: seconds)
    }

    private static func environment(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }
}
