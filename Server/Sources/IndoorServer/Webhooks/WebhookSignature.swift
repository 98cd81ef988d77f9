import Crypto
import Foundation

/// The signature of a delivery: `v1=` and the lowercase hex of HMAC-SHA-256, keyed with the hook's secret (its UTF-8
/// bytes), over `<timestamp>.<body>` (the `Indoor-Webhook-Timestamp` header's decimal Unix seconds, a dot, the body's
/// bytes as sent): the scheme Stripe and GitHub use. A receiver recomputes it, compares in constant time and
/// refuses a timestamp far from its clock (a replay).
public enum WebhookSignature {
    /// The header of the hook's id.
    public static let idHeader = "Indoor-Webhook-Id"
    /// The header of the timestamp, Unix seconds.
    public static let timestampHeader = "Indoor-Webhook-Timestamp"
    /// The header of the signature.
    public static let signatureHeader = "Indoor-Webhook-Signature"

    /// The `Indoor-Webhook-Signature` value of `body` sent at `timestamp` (Unix seconds) with `secret`.
    public static func sign(body: some DataProtocol, timestamp: Int64, secret: String) -> String {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: Data(secret.utf8)))
        hmac.update(data: Data("\(timestamp).".utf8))
        hmac.update(data: body)
        return "v1=" + hmac.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `signature` is `body`'s at `timestamp` with `secret` (compared in constant time).
    public static func isValid(_ signature: String, body: some DataProtocol, timestamp: Int64, secret: String) -> Bool {
        let expected = Array(sign(body: body, timestamp: timestamp, secret: secret).utf8)
        let given = Array(signature.utf8)
        guard expected.count == given.count else { return false }
        return zip(expected, given).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
