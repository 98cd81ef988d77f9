import Foundation
import NIOSSL

/// The certificate chain and private key `indoor serve --tls-cert --tls-key` serves HTTPS with.
struct ServeTLS {
    /// The server's TLS settings: the chain of `certificatePath` (PEM, the server's certificate first, then any
    /// intermediates) and the key of `keyPath` (PEM), TLS 1.2 or later.
    let configuration: TLSConfiguration

    /// Reads both files now, so that a missing, unreadable or wrong file stops the start with one line naming it.
    /// - Throws: ``CommandFailure`` naming the file and what to do.
    init(certificatePath: String, keyPath: String) throws {
        guard FileManager.default.isReadableFile(atPath: certificatePath) else {
            throw CommandFailure(
                "cannot read the TLS certificate '\(certificatePath)' (--tls-cert): no such readable file")
        }
        guard FileManager.default.isReadableFile(atPath: keyPath) else {
            throw CommandFailure("cannot read the TLS key '\(keyPath)' (--tls-key): no such readable file")
        }
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
        } catch {
            throw CommandFailure(
                "the TLS certificate '\(certificatePath)' (--tls-cert) is not a PEM certificate chain: \(error)")
        }
        guard !chain.isEmpty else {
            throw CommandFailure("the TLS certificate '\(certificatePath)' (--tls-cert) holds no certificate")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
        } catch {
            throw CommandFailure("the TLS key '\(keyPath)' (--tls-key) is not a PEM private key: \(error)")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        self.configuration = configuration
    }
}
