import Foundation
import IndoorServerTestSupport
import Testing

/// `indoor serve --tls-cert --tls-key` serves HTTPS with a certificate made in the test, and a wrong file stops the
/// start with one line naming it.
@Suite(.serialized) struct ServeTLSTests {
    /// Runs `executable` with `arguments` to its end: its exit status and standard output.
    static func run(_ executable: String, _ arguments: [String], in folder: URL) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func servesHTTPSWithTheGivenCertificate() throws {
        guard let binary = DurabilityTests.binary else {
            Issue.record("no indoor binary: build it with swift build --package-path Server --product indoor")
            return
        }
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try #require(TestCertificates.isInstalled, "openssl is needed (Debian's openssl)")
        try TestCertificates.make(in: folder, authority: "Indoor test CA")
        let server = try DurabilityTests.Child(
            binary: binary, database: folder.appendingPathComponent("indoor.sqlite").path,
            options: [
                "--tls-cert", folder.appendingPathComponent("server.pem").path,
                "--tls-key", folder.appendingPathComponent("server.key").path,
            ])
        defer { server.stop() }
        let curl = "/usr/bin/curl"
        try #require(FileManager.default.isExecutableFile(atPath: curl), "curl is needed (Debian's curl)")
        // Trusting the test's authority: the health document, over TLS.
        let (status, body) = try Self.run(
            curl, ["-sS", "--max-time", "20", "--cacert", "ca.pem", "https://127.0.0.1:\(server.port)/health"],
            in: folder)
        #expect(status == 0)
        #expect(body.contains("\"status\""), "\(body)")
        // Served over TLS, every answer asks browsers to keep to HTTPS.
        let (_, headers) = try Self.run(
            curl,
            [
                "-sS", "-D", "-", "-o", "/dev/null", "--max-time", "20", "--cacert", "ca.pem",
                "https://127.0.0.1:\(server.port)/",
            ],
            in: folder)
        #expect(headers.lowercased().contains("strict-transport-security: max-age="), "\(headers)")
        // Without trusting it, the handshake fails; in plain HTTP, no answer comes.
        let (untrusted, _) = try Self.run(
            curl, ["-sS", "--max-time", "20", "https://127.0.0.1:\(server.port)/health"], in: folder)
        #expect(untrusted != 0)
        let (plain, plainBody) = try Self.run(
            curl, ["-sS", "--max-time", "20", "http://127.0.0.1:\(server.port)/health"], in: folder)
        #expect(plain != 0 || !plainBody.contains("\"status\""))
    }

    @Test func aMissingOrWrongFileIsOneLineNamingIt() throws {
        guard let binary = DurabilityTests.binary else {
            Issue.record("no indoor binary: build it with swift build --package-path Server --product indoor")
            return
        }
        let folder = try ServeStartupTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("indoor.sqlite").path
        let missing = folder.appendingPathComponent("missing.pem").path
        let notPEM = folder.appendingPathComponent("not.pem")
        try Data("not a certificate\n".utf8).write(to: notPEM)

        let first = try ServeStartupTests.serve(
            binary, ["--port", "0", "--database", database, "--tls-cert", missing, "--tls-key", notPEM.path])
        #expect(first.status != 0)
        #expect(first.error.contains("cannot read the TLS certificate '\(missing)' (--tls-cert)"), "\(first.error)")
        #expect(first.error.split(separator: "\n").count == 1, "\(first.error)")

        let second = try ServeStartupTests.serve(
            binary, ["--port", "0", "--database", database, "--tls-cert", notPEM.path, "--tls-key", notPEM.path])
        #expect(second.status != 0)
        #expect(second.error.contains("'\(notPEM.path)' (--tls-cert) is not a PEM certificate"), "\(second.error)")

        let alone = try ServeStartupTests.serve(binary, ["--port", "0", "--database", database, "--tls-cert", missing])
        #expect(alone.status != 0)
        #expect(alone.error.contains("--tls-cert needs --tls-key"), "\(alone.error)")
        // None of the refused starts made a database.
        #expect(!FileManager.default.fileExists(atPath: database))
    }
}
