import IndoorModel

/// The fields of one JSON payload, read with errors that name the topic and the field.
struct PayloadFields {
    /// The MQTT topic, for messages.
    var topic: String
    /// The payload's top-level object.
    var object: [String: JSONValue]

    /// Parses `payload` as a JSON object.
    ///
    /// - Throws: `notJSON`, or `wrongType` when the JSON is not an object.
    init(topic: String, payload: [UInt8]) throws(GatewayPayloadError) {
        self.topic = topic
        switch JSONValue.object(payload) {
        case .object(let object):
            self.object = object
        case .notObject:
            throw GatewayPayloadError(
                .wrongType, topic: topic, field: nil, detail: "the payload is JSON but not an object")
        case .notJSON:
            throw GatewayPayloadError(
                .notJSON, topic: topic, field: nil,
                detail: "the payload is not JSON (or nests deeper than \(JSONValue.maximumDepth) levels)")
        }
    }

    /// Whether `field` is present and not null.
    func has(_ field: String) -> Bool {
        switch object[field] {
        case nil, .null: false
        default: true
        }
    }

    /// A number, or a string holding one (ESPresense writes some numbers as text); nil when absent or null.
    ///
    /// - Throws: `wrongType` for any other type or a string that is not a number.
    func number(_ field: String) throws(GatewayPayloadError) -> Double? {
        switch object[field] {
        case nil, .null:
            return nil
        case .number(let value):
            return value
        case .string(let text):
            guard let value = Double(text.trimmingSpaces) else {
                throw wrongType(field, "is the string '\(text.prefix(40))', which is not a number")
            }
            return value
        case .some(let other):
            throw wrongType(field, "is \(other.typeName); expected a number")
        }
    }

    /// A required number (see ``number(_:)``).
    ///
    /// - Throws: `missingField` when absent or null, `wrongType` as ``number(_:)``.
    func requiredNumber(_ field: String) throws(GatewayPayloadError) -> Double {
        guard let value = try number(field) else { throw missing(field) }
        return value
    }

    /// A string; nil when absent or null.
    ///
    /// - Throws: `wrongType` for any other type.
    func string(_ field: String) throws(GatewayPayloadError) -> String? {
        switch object[field] {
        case nil, .null: return nil
        case .string(let text): return text
        case .some(let other): throw wrongType(field, "is \(other.typeName); expected a string")
        }
    }

    /// A required string.
    ///
    /// - Throws: `missingField` when absent or null, `wrongType` for any other type.
    func requiredString(_ field: String) throws(GatewayPayloadError) -> String {
        guard let text = try string(field) else { throw missing(field) }
        return text
    }

    /// A whole number within `range`, given as a number or a string of one; nil when absent or null.
    ///
    /// - Throws: `wrongType` (not a whole number), `outOfRange` (outside `range`).
    func integer(_ field: String, in range: ClosedRange<Int>) throws(GatewayPayloadError) -> Int? {
        guard let value = try number(field) else { return nil }
        guard let whole = Int(exactly: value) else {
            throw wrongType(field, "is \(value), not a whole number")
        }
        guard range.contains(whole) else {
            throw GatewayPayloadError(
                .outOfRange, topic: topic, field: field,
                detail: "\(field) \(whole) is outside \(range.lowerBound)…\(range.upperBound)")
        }
        return whole
    }

    /// Bytes written as hex digits; nil when absent or null.
    ///
    /// - Throws: `wrongType` (not a string), `badHex` naming the character offset or the odd length.
    func hex(_ field: String) throws(GatewayPayloadError) -> [UInt8]? {
        guard let text = try string(field) else { return nil }
        switch Hex.decode(text) {
        case .bytes(let bytes):
            return bytes
        case .oddLength(let count):
            throw GatewayPayloadError(
                .badHex, topic: topic, field: field, detail: "\(field) has an odd number of hex digits (\(count))")
        case .notHex(let offset):
            throw GatewayPayloadError(
                .badHex, topic: topic, field: field,
                detail: "\(field) has a character that is not a hex digit at offset \(offset)")
        }
    }

    /// A received signal strength in dBm, checked with ``Sighting/rssiProblem(dBm:)``.
    ///
    /// - Throws: `missingField`, `wrongType`, or `outOfRange` with the engine's words.
    func rssi(_ field: String) throws(GatewayPayloadError) -> Double {
        let value = try requiredNumber(field)
        if let problem = Sighting.rssiProblem(dBm: value) {
            throw GatewayPayloadError(.outOfRange, topic: topic, field: field, detail: "\(field): \(problem)")
        }
        return value
    }

    /// An optional power at 1 m in dBm, checked with ``Sighting/txPowerProblem(dBm:)``.
    ///
    /// - Throws: `wrongType`, or `outOfRange` with the engine's words.
    func txPower(_ field: String) throws(GatewayPayloadError) -> Double? {
        guard let value = try number(field) else { return nil }
        if let problem = Sighting.txPowerProblem(dBm: value) {
            throw GatewayPayloadError(.outOfRange, topic: topic, field: field, detail: "\(field): \(problem)")
        }
        return value
    }

    /// A `missingField` error for `field`.
    func missing(_ field: String) -> GatewayPayloadError {
        GatewayPayloadError(.missingField, topic: topic, field: field, detail: "\(field) is missing")
    }

    /// A `wrongType` error: `<field> <detail>`.
    func wrongType(_ field: String, _ detail: String) -> GatewayPayloadError {
        GatewayPayloadError(.wrongType, topic: topic, field: field, detail: "\(field) \(detail)")
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and line breaks.
    var trimmingSpaces: Substring {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return text
    }
}
