/// An Eddystone-URL frame: a compressed URL and the tx power at 0 m.
///
/// Layout after the service UUID: frame type `10`, tx power (int8 dBm at 0 m), a scheme prefix code
/// (`0` `http://www.`, `1` `https://www.`, `2` `http://`, `3` `https://`) and 0–17 bytes of URL in which
/// the codes 0x00–0x0D stand for `.com/`, `.org/`, `.edu/`, `.net/`, `.info/`, `.biz/`, `.gov/`
/// and the same seven without the slash. Reserved bytes (0x0E–0x20, 0x7F–0xFF) expand to `%XX`.
///
/// The value holds the encoded bytes (no references, cheap to copy); ``url`` expands them.
public struct EddystoneURL: Hashable, Sendable {
    /// The scheme prefix code, 0–3.
    public private(set) var scheme: UInt8
    /// How many encoded URL bytes there are, 0–17.
    var count: UInt8
    /// The encoded URL bytes 0–7, 8–15 and 16, little-endian.
    var word0: UInt64 = 0
    var word1: UInt64 = 0
    var byte16: UInt8 = 0
    /// The calibrated transmit power at 0 m, dBm.
    public var txPowerAtZeroMeters: Int8

    /// The longest encoded URL, bytes.
    static let maxEncodedLength = 17

    static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    static let expansions = [
        ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
        ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
    ]

    /// Encodes `url`, using the longest scheme prefix and expansion codes that match.
    ///
    /// - Throws: ``AdvertisingError`` (`encoding`) when the URL has no http(s) scheme, holds characters outside
    ///   printable ASCII, or encodes to more than 17 bytes.
    public init(url: String, txPowerAtZeroMetersDBm: Int8) throws {
        guard let schemeIndex = Self.schemes.indices.first(where: { url.hasPrefix(Self.schemes[$0]) }) else {
            throw AdvertisingError(code: .encoding, message: "URL '\(url)' does not start with http:// or https://")
        }
        var rest = Substring(url.dropFirst(Self.schemes[schemeIndex].count))
        var encoded: [UInt8] = []
        while let first = rest.unicodeScalars.first {
            if let code = Self.expansions.indices.first(where: { rest.hasPrefix(Self.expansions[$0]) }) {
                encoded.append(UInt8(code))
                rest = rest.dropFirst(Self.expansions[code].count)
                continue
            }
            guard first.value > 0x20, first.value < 0x7F else {
                throw AdvertisingError(code: .encoding, message: "URL '\(url)' has a character outside printable ASCII")
            }
            encoded.append(UInt8(first.value))
            rest = Substring(rest.unicodeScalars.dropFirst())
        }
        guard encoded.count <= Self.maxEncodedLength else {
            throw AdvertisingError(
                code: .encoding, message: "URL '\(url)' encodes to \(encoded.count) bytes; at most 17 fit")
        }
        self.init(scheme: UInt8(schemeIndex), txPower: txPowerAtZeroMetersDBm, count: encoded.count) { encoded[$0] }
    }

    init(scheme: UInt8, txPower: Int8, count: Int, byte: (Int) -> UInt8) {
        self.scheme = scheme
        self.count = UInt8(count)
        self.txPowerAtZeroMeters = txPower
        for index in 0..<count {
            let value = UInt64(byte(index))
            if index < 8 {
                word0 |= value << (8 * UInt64(index))
            } else if index < 16 {
                word1 |= value << (8 * UInt64(index - 8))
            } else {
                byte16 = UInt8(value)
            }
        }
    }

    /// The encoded URL bytes (after the scheme code).
    public var encodedURL: [UInt8] {
        (0..<Int(count)).map { index in
            if index < 8 { return UInt8(truncatingIfNeeded: word0 >> (8 * UInt64(index))) }
            if index < 16 { return UInt8(truncatingIfNeeded: word1 >> (8 * UInt64(index - 8))) }
            return byte16
        }
    }

    /// The expanded URL.
    public var url: String {
        var url = Self.schemes[Int(scheme & 3)]
        for byte in encodedURL {
            if byte < 14 {
                url += Self.expansions[Int(byte)]
            } else if byte > 0x20, byte < 0x7F {
                url.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                url += "%" + hexString([byte]).uppercased()
            }
        }
        return url
    }

    /// The expected received power at 1 m, dBm: tx power at 0 m − 41.
    public var powerAtOneMeter: Int { Int(txPowerAtZeroMeters) - Eddystone.lossAtOneMeter }

    /// Decodes an Eddystone frame (frame type byte first); nil when it is not a valid URL frame.
    init?(frame: [UInt8]) {
        guard let value = frame.withUnsafeBytes({ EddystoneURL.decode($0) }) else { return nil }
        self = value
    }

    @inline(__always)
    static func decode(_ frame: UnsafeRawBufferPointer) -> EddystoneURL? {
        guard frame.count >= 3, frame.count <= 3 + maxEncodedLength, frame[0] == Eddystone.urlFrame, frame[2] < 4
        else { return nil }
        return EddystoneURL(scheme: frame[2], txPower: frame.i8(1), count: frame.count - 3) { frame[3 + $0] }
    }

    /// The frame bytes (frame type first).
    public var frame: [UInt8] {
        [Eddystone.urlFrame, UInt8(bitPattern: txPowerAtZeroMeters), scheme] + encodedURL
    }

    /// Complete advertising data: flags, service UUID list and the service data.
    public var advertisingData: [UInt8] { Eddystone.advertisingData(frame: frame) }
}
