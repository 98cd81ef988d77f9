import Foundation

/// A certificate authority and a server certificate signed by it, for the tests of TLS (the server's HTTPS, mqtts://,
/// PostgreSQL's sslmode): made with openssl in a folder as `ca.pem`, `ca.key`, `server.pem` and `server.key`.
///
/// The server certificate is for `localhost` and 127.0.0.1, for server authentication, valid two days; its key is
/// readable by its owner only (PostgreSQL refuses one that others may read). Keys are P-256 (quick to make).
package enum TestCertificates {
    package static let openssl = "/usr/bin/openssl"

    /// Whether openssl is installed (Debian's `openssl`).
    package static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: openssl) }

    /// Makes the authority, named `authority`, and the server certificate in `folder`.
    /// - Throws: ``BrokerError`` naming the openssl step that failed, or openssl missing.
    package static func make(in folder: URL, authority: String) throws {
        guard isInstalled else { throw BrokerError("\(openssl) is not installed: TLS tests need Debian's `openssl`") }
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Broker.runTool(
            openssl,
            ["req", "-x509"] + key + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=\(authority)",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ], in: folder)
        try Broker.runTool(
            openssl, ["req"] + key + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"],
            in: folder)
        try Data("subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n".utf8).write(
            to: folder.appendingPathComponent("server.ext"))
        try Broker.runTool(
            openssl,
            [
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "server.pem", "-days", "2", "-extfile", "server.ext",
            ], in: folder)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o600], ofItemAtPath: folder.appendingPathComponent("server.key").path)
    }
}
