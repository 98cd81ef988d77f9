/// An Eddystone-URL frame: a compressed URL and the tx power at 0 m.
///
/// Layout after the service UUID: frame type `10`, tx power (int8 dBm at 0 m), a scheme prefix code
/// (`0` `http://www.`, `1` `https://www.`, `2` `http://`, `3` `https://`) and up to 17 bytes of URL in which
/// the codes 0x00–0x0D stand for `.com/`, `.org/`, `.edu/`, `.net/`, `.info/`, `.biz/`, `.gov/`
/// and the same seven without the slash. Reserved bytes (0x0E–0x20, 0x7F–0xFF) are kept as `%XX`.
public struct EddystoneURL: Hashable, Sendable {
    /// The expanded URL.
    public var url: String
    /// The calibrated transmit power at 0 m, dBm.
    public var txPowerAtZeroMeters: Int8

    public init(url: String, txPowerAtZeroMetersDBm: Int8) {
        self.url = url
        self.txPowerAtZeroMeters = txPowerAtZeroMetersDBm
    }

    static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    static let expansions = [
        ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
        ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
    ]

    /// The expected received power at 1 m, dBm: tx power at 0 m − 41.
    public var powerAtOneMeter: Int { Int(txPowerAtZeroMeters) - Eddystone.lossAtOneMeter }

    /// Decodes an Eddystone frame (frame type byte first); nil when it is not a URL frame.
    public init?(frame: [UInt8]) {
        guard let value = frame.withUnsafeBytes({ EddystoneURL.decode($0) }) else { return nil }
        self = value
    }

    static func decode(_ frame: UnsafeRawBufferPointer) -> EddystoneURL? {
        guard frame.count >= 3, frame[0] == Eddystone.urlFrame, frame[2] < 4 else { return nil }
        var url = schemes[Int(frame[2])]
        for index in 3 ..< frame.count {
            let byte = frame[index]
            if byte < 14 {
                url += expansions[Int(byte)]
            } else if byte > 0x20, byte < 0x7F {
                url.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                url += "%" + hexString([byte]).uppercased()
            }
        }
        return EddystoneURL(url: url, txPowerAtZeroMetersDBm: frame.i8(1))
    }

    /// The frame bytes (frame type first).
    ///
    /// - Throws: ``AdvertisingError`` (`encoding`) when the URL has no known scheme, holds characters outside
    ///   printable ASCII, or encodes to more than 17 bytes.
    public func frame() throws -> [UInt8] {
        guard let schemeIndex = EddystoneURL.schemes.indices.first(where: { url.hasPrefix(EddystoneURL.schemes[$0]) })
        else {
            throw AdvertisingError(code: .encoding, message: "URL '\(url)' does not start with http:// or https://")
        }
        var rest = Substring(url.dropFirst(EddystoneURL.schemes[schemeIndex].count))
        var encoded: [UInt8] = []
        while let first = rest.unicodeScalars.first {
            if let code = EddystoneURL.expansions.indices.first(where: { rest.hasPrefix(EddystoneURL.expansions[$0]) }) {
                encoded.append(UInt8(code))
                rest = rest.dropFirst(EddystoneURL.expansions[code].count)
                continue
            }
            guard first.value > 0x20, first.value < 0x7F else {
                throw AdvertisingError(code: .encoding, message: "URL '\(url)' has a character outside printable ASCII")
            }
            encoded.append(UInt8(first.value))
            rest = Substring(rest.unicodeScalars.dropFirst())
        }
        guard encoded.count <= 17 else {
            throw AdvertisingError(
                code: .encoding, message: "URL '\(url)' encodes to \(encoded.count) bytes; at most 17 fit")
        }
        return [Eddystone.urlFrame, UInt8(bitPattern: txPowerAtZeroMeters), UInt8(schemeIndex)] + encoded
    }

    /// Complete advertising data: flags, service UUID list and the service data.
    public func advertisingData() throws -> [UInt8] { Eddystone.advertisingData(frame: try frame()) }
}
