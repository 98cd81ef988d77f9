import IndoorGateways
@_spi(IndoorPackages) import IndoorModel
import IndoorSession

/// Reads the body of `POST /v1/scans` (``ScanRequest``) in one pass over its UTF-8 bytes, for the bodies that
/// `JSONDecoder` reads without complaint: the sightings as ``SightingBatchReader`` reads them (each bad one with the
/// index, field and message `JSONDecoder` gives), the other fields as `JSONDecoder` reads them.
///
/// It answers only where it is sure to answer as `JSONDecoder` does: well-formed JSON, each field of its type (or
/// `null` or absent where optional), no key given twice, `knownLocation.floor` written as a whole number. For
/// anything else it answers `nil` and the route asks `JSONDecoder` (``ScanRequest/decode(_:)``), so every refusal
/// keeps its field and message.
package enum ScanRequestReader {
    /// The request in `body`, or `nil` when `JSONDecoder` must decide.
    package static func read(_ body: UnsafeRawBufferPointer) -> ScanRequest? {
        var scanner = JSONByteScanner(body)
        do throws(JSONSyntaxError) {
            return try read(&scanner)
        } catch {
            return nil
        }
    }

    private static func read(_ scanner: inout JSONByteScanner) throws(JSONSyntaxError) -> ScanRequest? {
        var geofence: String?
        var items: [SightingBatch.Item]?
        var duration: Double?
        var location: DeviceLocation?
        var device: String?
        var seen: Set<String> = []
        scanner.skipWhitespace()
        guard scanner.current == UInt8(ascii: "{") else { return nil }
        let members = try Self.members(&scanner) {
            (key: String, scanner: inout JSONByteScanner) throws(JSONSyntaxError) -> Bool in
            guard seen.insert(key).inserted else { return false }
            switch key {
            case "geofence":
                guard let text = try string(&scanner) else { return false }
                geofence = text
            case "sightings":
                guard scanner.current == UInt8(ascii: "[") else { return false }
                items = SightingBatch.Item.items(try SightingBatchReader.readItems(&scanner))
            case "duration":
                guard let value = try optionalNumber(&scanner) else { return false }
                duration = value
            case "device":
                guard let text = try optionalString(&scanner) else { return false }
                device = text
            case "knownLocation":
                if scanner.current == UInt8(ascii: "n") { return try null(&scanner) }
                guard let read = try knownLocation(&scanner) else { return false }
                location = read
            default:
                try scanner.skipValue(depth: 1)
            }
            return true
        }
        guard members else { return nil }
        scanner.skipWhitespace()
        guard scanner.isAtEnd, let geofence, let items else { return nil }
        return ScanRequest(
            geofence: geofence, items: items, duration: duration, knownLocation: location, device: device)
    }

    /// Reads an object's members (the current byte is its `{`), handing each key to `member` with the scanner at
    /// its value (after whitespace); `member` reads the value and answers `false` to give up. `false` when it did.
    private static func members(
        _ scanner: inout JSONByteScanner,
        _ member: (String, inout JSONByteScanner) throws(JSONSyntaxError) -> Bool
    ) throws(JSONSyntaxError) -> Bool {
        scanner.position += 1
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "}") {
            scanner.position += 1
            return true
        }
        repeat {
            scanner.skipWhitespace()
            guard scanner.current == UInt8(ascii: "\"") else { return false }
            let key = scanner.string(try scanner.scanString())
            try scanner.expect(UInt8(ascii: ":"), "':' after an object key")
            scanner.skipWhitespace()
            guard try member(key, &scanner) else { return false }
        } while try scanner.endOfMember(closing: UInt8(ascii: "}"), "',' or '}' after an object member")
        return true
    }

    /// A string; `nil` for any other value (left unread).
    private static func string(_ scanner: inout JSONByteScanner) throws(JSONSyntaxError) -> String? {
        guard scanner.current == UInt8(ascii: "\"") else { return nil }
        let text = scanner.string(try scanner.scanString())
        // U+0000, which JSONDecoder refuses in some places and not others, is left to it.
        return text.utf8.contains(0) ? nil : text
    }

    /// `.some(nil)` for `null`, `.some(text)` for a string, `nil` for any other value.
    private static func optionalString(_ scanner: inout JSONByteScanner) throws(JSONSyntaxError) -> String?? {
        if scanner.current == UInt8(ascii: "n") { return try null(&scanner) ? .some(nil) : nil }
        return try string(&scanner).map { .some($0) }
    }

    /// A number a `Double` holds; `nil` for any other value.
    private static func number(_ scanner: inout JSONByteScanner) throws(JSONSyntaxError) -> Double? {
        switch scanner.current {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try scanner.scanNumber()
            return number.isRepresentable && !scanner.isZeroWithExponent(number) ? number.value : nil
        default: return nil
        }
    }

    /// `.some(nil)` for `null`, `.some(value)` for a number a `Double` holds, `nil` for any other value.
    private static func optionalNumber(_ scanner: inout JSONByteScanner) throws(JSONSyntaxError) -> Double?? {
        if scanner.current == UInt8(ascii: "n") { return try null(&scanner) ? .some(nil) : nil }
        return try number(&scanner).map { .some($0) }
    }

    /// Consumes `null`; `false` for `true` or `false` (a literal too, but not null).
    private static func null(_ scanner: inout JSONByteScanner) throws(JSONSyntaxError) -> Bool {
        let first = scanner.current
        try scanner.scanLiteral()
        return first == UInt8(ascii: "n")
    }

    /// `knownLocation` as the synthesized `DeviceLocation.init(from:)` reads it; `nil` for anything it might read
    /// otherwise or refuse.
    private static func knownLocation(_ scanner: inout JSONByteScanner) throws(JSONSyntaxError) -> DeviceLocation? {
        guard scanner.current == UInt8(ascii: "{") else { return nil }
        var latitude: Double?
        var longitude: Double?
        var accuracy: Double??
        var floor: Int??
        var timestamp: Double??
        var seen: Set<String> = []
        let members = try Self.members(&scanner) {
            (key: String, scanner: inout JSONByteScanner) throws(JSONSyntaxError) -> Bool in
            guard seen.insert(key).inserted else { return false }
            switch key {
            case "latitude": latitude = try number(&scanner)
            case "longitude": longitude = try number(&scanner)
            case "horizontalAccuracy": accuracy = try optionalNumber(&scanner)
            case "timestamp": timestamp = try optionalNumber(&scanner)
            case "floor":
                if scanner.current == UInt8(ascii: "n") {
                    floor = try null(&scanner) ? .some(nil) : nil
                } else if let value = try wholeNumber(&scanner) {
                    floor = .some(value)
                }
            default:
                try scanner.skipValue(depth: 2)
                return true
            }
            switch key {
            case "latitude": return latitude != nil
            case "longitude": return longitude != nil
            case "horizontalAccuracy": return accuracy != nil
            case "timestamp": return timestamp != nil
            default: return floor != nil
            }
        }
        guard members, let latitude, let longitude else { return nil }
        return DeviceLocation(
            latitude: latitude, longitude: longitude, horizontalAccuracy: accuracy ?? nil, floor: floor ?? nil,
            timestamp: timestamp ?? nil)
    }

    /// A number written as a whole number (`-`? digits, no fraction or exponent) that an `Int` holds; `nil` for
    /// any other value.
    private static func wholeNumber(_ scanner: inout JSONByteScanner) throws(JSONSyntaxError) -> Int? {
        switch scanner.current {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let text = scanner.text(try scanner.scanNumber())
            return text.hasPrefix("-0") ? nil : Int(text)
        default: return nil
        }
    }
}
