import IndoorGateways
@_spi(IndoorPackages) import IndoorModel

/// Reads the body of `POST /v1/sightings` (`{"venue": "hq", "sightings": [ … ]}`) in one pass over its UTF-8 bytes,
/// with the answers of the `JSONDecoder`-based ``SightingBatch``: the same sightings, and for each bad item the same
/// index, field and message.
///
/// The whole body is checked for syntax first, as `JSONDecoder` does: a body that is not well-formed JSON is
/// refused as a whole (``JSONSyntaxError``, naming the byte offset, line and column) even when its first items
/// are good. Keys may come in any order, unknown keys are skipped (whatever their value holds), `null` is read as
/// absent for the optional fields (`tx`, `node`, `beacon`), and for a key given twice the first value counts, at the
/// top and in each sighting (as `JSONDecoder` on Linux does).
package enum SightingBatchReader {
    /// A batch as read: the venue, the sightings that were readable with the index of each in the batch, and one
    /// error per unreadable item.
    package struct Batch: Sendable {
        package var venue: String
        /// How many items the batch held, readable or not.
        package var count: Int
        package var sightings: [Sighting]
        /// The batch index of each of ``sightings``.
        package var indices: [Int]
        package var errors: [ItemError]
    }

    /// The body's fields of interest as scanned, before the checks that `JSONDecoder` makes after parsing.
    private enum Field<Value> {
        case absent, null, wrongType
        case value(Value)

        /// Whether the key has not been seen: of a key given twice, the first value counts (as with `JSONDecoder`).
        var isAbsent: Bool {
            if case .absent = self { return true }
            return false
        }
    }

    /// Reads a batch.
    ///
    /// - Throws: ``BatchBodyError`` (answered 400 `invalidJSON`) naming the field: `body` for text that is not JSON (with its
    ///   position) or not an object, `venue` or `sightings` for a missing or mistyped one.
    package static func read(_ body: UnsafeRawBufferPointer) throws -> Batch {
        var scanner = JSONByteScanner(body)
        var venue = Field<String>.absent
        var items = Field<(sightings: [Sighting], indices: [Int], errors: [ItemError], count: Int)>.absent
        do {
            scanner.skipWhitespace()
            if scanner.current == UInt8(ascii: "{") {
                scanner.position += 1
                scanner.skipWhitespace()
                if scanner.current == UInt8(ascii: "}") {
                    scanner.position += 1
                } else {
                    repeat {
                        scanner.skipWhitespace()
                        guard scanner.current == UInt8(ascii: "\"") else {
                            throw scanner.error(expected: "a string key")
                        }
                        let key = try scanner.scanString()
                        try scanner.expect(UInt8(ascii: ":"), "':' after an object key")
                        scanner.skipWhitespace()
                        switch Self.key(key, in: scanner) {
                        case .venue where venue.isAbsent: venue = try readString(&scanner)
                        case .sightings where items.isAbsent:
                            if scanner.current == UInt8(ascii: "[") {
                                items = .value(try readItems(&scanner))
                            } else {
                                items = try kind(&scanner)
                            }
                        default: try scanner.skipValue(depth: 1)
                        }
                    } while try scanner.endOfMember(closing: UInt8(ascii: "}"), "',' or '}' after an object member")
                }
            } else {
                let isNull = scanner.current == UInt8(ascii: "n")
                try scanner.skipValue()
                scanner.skipWhitespace()
                guard scanner.isAtEnd else { throw scanner.error(expected: "the end of the body") }
                throw BatchBodyError(
                    field: "body", message: isNull ? "expected an object, found null" : "expected an object")
            }
            scanner.skipWhitespace()
            guard scanner.isAtEnd else { throw scanner.error(expected: "the end of the body") }
        } catch let error as JSONSyntaxError {
            throw BatchBodyError(field: "body", message: "not valid JSON: \(error.message)")
        }
        let name: String
        switch venue {
        case .absent: throw BatchBodyError(field: "venue", message: "missing field 'venue'")
        case .null: throw BatchBodyError(field: "venue", message: "venue: expected a string, found null")
        case .wrongType: throw BatchBodyError(field: "venue", message: "venue: expected a string")
        case .value(let text): name = text
        }
        switch items {
        case .absent: throw BatchBodyError(field: "sightings", message: "missing field 'sightings'")
        case .null:
            throw BatchBodyError(field: "sightings", message: "sightings: expected an array, found null")
        case .wrongType:
            throw BatchBodyError(field: "sightings", message: "sightings: expected an array")
        case .value(let read):
            return Batch(
                venue: name, count: read.count, sightings: read.sightings, indices: read.indices, errors: read.errors)
        }
    }

    /// A number read: its value, and its text when no `Double` holds it (for the message).
    private typealias Number = (value: Double, text: String?)

    /// The keys of the schema.
    private enum Key: String, Sendable {
        case t, device, node, beacon, rssi, tx, venue, sightings, other
    }

    /// The key a string token names, matched without building a `String` unless it holds escapes.
    private static func key(_ token: JSONByteScanner.StringToken, in scanner: JSONByteScanner) -> Key {
        guard !token.escaped else {
            return Key(rawValue: scanner.string(token)).flatMap { $0 == .other ? nil : $0 } ?? .other
        }
        switch token.end - token.start {
        case 1: if scanner.token(token, is: "t") { return .t }
        case 2: if scanner.token(token, is: "tx") { return .tx }
        case 4:
            if scanner.token(token, is: "rssi") { return .rssi }
            if scanner.token(token, is: "node") { return .node }
        case 5: if scanner.token(token, is: "venue") { return .venue }
        case 6:
            if scanner.token(token, is: "device") { return .device }
            if scanner.token(token, is: "beacon") { return .beacon }
        case 9: if scanner.token(token, is: "sightings") { return .sightings }
        default: break
        }
        return .other
    }

    /// Reads any value (at the current byte, after whitespace) as a string field.
    private static func readString(_ scanner: inout JSONByteScanner) throws(JSONSyntaxError) -> Field<String> {
        guard scanner.current == UInt8(ascii: "\"") else { return try kind(&scanner) }
        return .value(scanner.string(try scanner.scanString()))
    }

    /// Reads any value as a number field, keeping the number's text for messages.
    private static func readNumber(_ scanner: inout JSONByteScanner) throws(JSONSyntaxError) -> Field<Number> {
        switch scanner.current {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try scanner.scanNumber()
            return .value((number.value, number.isRepresentable ? nil : scanner.text(number)))
        default: return try kind(&scanner)
        }
    }

    /// Steps over a value that is not of the type wanted: `null`, or any other kind.
    private static func kind<Value>(_ scanner: inout JSONByteScanner) throws(JSONSyntaxError) -> Field<Value> {
        let isNull = scanner.current == UInt8(ascii: "n")
        try scanner.skipValue(depth: 1)
        return isNull ? .null : .wrongType
    }

    /// Reads the `sightings` array (the current byte is its `[`), each item on its own.
    static func readItems(_ scanner: inout JSONByteScanner) throws(JSONSyntaxError) -> (
        sightings: [Sighting], indices: [Int], errors: [ItemError], count: Int
    ) {
        scanner.position += 1
        var sightings: [Sighting] = []
        var indices: [Int] = []
        var errors: [ItemError] = []
        var index = 0
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "]") {
            scanner.position += 1
            return ([], [], [], 0)
        }
        repeat {
            scanner.skipWhitespace()
            switch try readItem(&scanner, index: index) {
            case .success(let sighting):
                sightings.append(sighting)
                indices.append(index)
            case .failure(let error): errors.append(error)
            }
            index += 1
        } while try scanner.endOfMember(closing: UInt8(ascii: "]"), "',' or ']' after an array element")
        return (sightings, indices, errors, index)
    }

    /// Reads one item of the array: a sighting, or the error `JSONDecoder` and `Sighting.init(from:)` give for it.
    private static func readItem(_ scanner: inout JSONByteScanner, index: Int) throws(JSONSyntaxError)
        -> Result<Sighting, ItemError>
    {
        var path: String { "sightings[\(index)]" }
        guard scanner.current == UInt8(ascii: "{") else {
            let found: Field<Void> = try kind(&scanner)
            if case .null = found {
                return .failure(
                    ItemError(index: index, field: path, message: "\(path): expected an object, found null"))
            }
            return .failure(ItemError(index: index, field: path, message: "\(path): expected an object"))
        }
        scanner.position += 1
        var time = Field<Number>.absent
        var rssi = Field<Number>.absent
        var tx = Field<Number>.absent
        var device = Field<String>.absent
        var node = Field<String>.absent
        var beacon = Field<String>.absent
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "}") {
            scanner.position += 1
        } else {
            repeat {
                scanner.skipWhitespace()
                guard scanner.current == UInt8(ascii: "\"") else { throw scanner.error(expected: "a string key") }
                let key = try scanner.scanString()
                try scanner.expect(UInt8(ascii: ":"), "':' after an object key")
                scanner.skipWhitespace()
                switch Self.key(key, in: scanner) {
                case .t where time.isAbsent: time = try readNumber(&scanner)
                case .rssi where rssi.isAbsent: rssi = try readNumber(&scanner)
                case .tx where tx.isAbsent: tx = try readNumber(&scanner)
                case .device where device.isAbsent: device = try readString(&scanner)
                case .node where node.isAbsent: node = try readString(&scanner)
                case .beacon where beacon.isAbsent: beacon = try readString(&scanner)
                default: try scanner.skipValue(depth: 2)
                }
            } while try scanner.endOfMember(closing: UInt8(ascii: "}"), "',' or '}' after an object member")
        }
        func failure(_ field: String, _ message: String) -> Result<Sighting, ItemError> {
            .failure(ItemError(index: index, field: "\(path).\(field)", message: "\(path).\(field): \(message)"))
        }
        func missing(_ key: String) -> Result<Sighting, ItemError> {
            .failure(ItemError(index: index, field: path, message: "\(path): missing field '\(key)'"))
        }
        /// The checks of `decodeNumber(forKey:name:)` (required) and `decodeNumberIfPresent(forKey:name:)`.
        func number(_ field: Field<Number>, _ key: String, required: Bool) -> Result<Double?, ItemError> {
            switch field {
            case .absent:
                return required ? missing(key).map { _ in nil } : .success(nil)
            case .null:
                return required ? failure(key, "expected a number, found null").map { _ in nil } : .success(nil)
            case .wrongType: return failure(key, "expected a number").map { _ in nil }
            case .value(let (value, text)):
                if let text { return failure(key, "\(key) '\(text)' is not a finite number").map { _ in nil } }
                return .success(value)
            }
        }
        let t: Double
        switch number(time, "t", required: true) {
        case .failure(let error): return .failure(error)
        case .success(let value): t = value ?? 0
        }
        let strength: Double
        switch number(rssi, "rssi", required: true) {
        case .failure(let error): return .failure(error)
        case .success(let value): strength = value ?? 0
        }
        if let problem = Sighting.rssiProblem(dBm: strength) { return failure("rssi", problem) }
        let power: Double?
        switch number(tx, "tx", required: false) {
        case .failure(let error): return .failure(error)
        case .success(let value): power = value
        }
        if let power, let problem = Sighting.txPowerProblem(dBm: power) { return failure("tx", problem) }
        let source: SightingSource
        switch (beacon, node) {
        case (.wrongType, _): return failure("beacon", "expected a string")
        case (.value(let text), _):
            do {
                source = .beacon(try BeaconID(parsing: text))
            } catch let error as FormatError {
                return failure("beacon", error.message)
            } catch {
                return failure("beacon", "\(error)")
            }
        case (_, .wrongType): return failure("node", "expected a string")
        case (_, .value(let id)): source = .node(id)
        default:
            return .failure(ItemError(index: index, field: path, message: "missing field 'node'"))
        }
        let name: String
        switch device {
        case .absent: return missing("device")
        case .null: return failure("device", "expected a string, found null")
        case .wrongType: return failure("device", "expected a string")
        case .value(let text): name = text
        }
        guard !name.isEmpty else { return failure("device", "device is empty") }
        if case .node(let id) = source, id.isEmpty { return failure("node", "node is empty") }
        return .success(Sighting(time: t, device: name, source: source, rssi: strength, txPower: power))
    }
}
