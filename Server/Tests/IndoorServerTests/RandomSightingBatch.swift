import IndoorModel

/// Seeded random bodies of `POST /v1/sightings`: good and bad items, every JSON form of numbers and strings, free
/// key order and whitespace, unknown and repeated keys, values of the wrong type and `null`.
struct RandomSightingBatch {
    var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &random) < probability
    }

    mutating func pick(_ choices: [String]) -> String {
        choices[Int.random(in: 0..<choices.count, using: &random)]
    }

    /// Whitespace, often none.
    mutating func space() -> String {
        chance(0.6) ? "" : pick([" ", "\n", "\t", "\r\n  ", "  "])
    }

    /// A number near `value` in one of JSON's forms, or (rarely) one no `Double` holds.
    mutating func number(_ value: Double) -> String {
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return "\(Int(value.rounded()))"
        case 1: return "\(Int(value.rounded()))e0"
        case 2: return "\(Int(value.rounded() * 10))E-1"
        case 3: return "\(value / 100)e+2"
        case 4: return value == 0 ? "-0" : "\(value)"
        case 5: return value.rounded() == 0 ? "-0.0" : "\(value.rounded())"
        case 6: return pick(["1e999", "-1e999", "1E400", "-2.5e308"])
        case 7: return "\(value)000000000000000000001"
        case 8: return "\(Int(value.rounded()))0000000000000000000000e-22"
        case 9: return pick(["1e-400", "0.0000000000000000000000000001", "4.9e-324"])
        default: return "\(value)"
        }
    }

    /// A JSON string literal, with escapes of every kind sometimes.
    mutating func string(_ text: String) -> String {
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            // Every character as a \u escape.
            return "\"" + text.unicodeScalars.map { Self.escape($0) }.joined() + "\""
        case 1:
            return "\"" + text.replacingOccurrences(of: "/", with: "\\/") + "\""
        default:
            return "\"" + text + "\""
        }
    }

    static func escape(_ scalar: Unicode.Scalar) -> String {
        String(scalar).utf16.map { unit in
            let hex = String(unit, radix: 16, uppercase: unit % 2 == 0)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }.joined()
    }

    /// A value of another type than the field's.
    mutating func wrong() -> String {
        pick(["true", "false", "[]", "[1, {\"a\": null}]", "{}", "{\"x\": [1, 2, {\"y\": \"}\"}]}", "\"text\"", "12"])
    }

    /// A field's value: usually good, sometimes `null` or of the wrong type.
    mutating func field(_ good: String) -> String {
        switch Double.random(in: 0..<1, using: &random) {
        case ..<0.85: return good
        case ..<0.92: return "null"
        default: return wrong()
        }
    }

    /// One object member, `"key": value`, with whitespace around.
    mutating func member(_ key: String, _ value: String) -> String {
        let name = chance(0.1) ? "\"" + key.unicodeScalars.map { Self.escape($0) }.joined() + "\"" : "\"\(key)\""
        return space() + name + space() + ":" + space() + value + space()
    }

    /// One item of the `sightings` array.
    mutating func item() -> String {
        if chance(0.04) { return pick(["null", "5", "\"s\"", "[]", "true"]) }
        var members: [String] = []
        if chance(0.95) {
            members.append(member("t", field(number(Double(Int.random(in: 0...100_000, using: &random)) / 8))))
        }
        let rssi: Double = chance(0.9) ? -Double(Int.random(in: 300...1_000, using: &random)) / 10 : pick2(-500, 1_000)
        if chance(0.95) { members.append(member("rssi", field(number(rssi)))) }
        if chance(0.3) { members.append(member("tx", field(number(chance(0.9) ? -59 : 300)))) }
        let devices = ["p", "phone-1", "d\u{E9}v", "\u{1F600}x", "a\\\"b", "", "tab\\tx", "\\ud83d\\ude00"]
        if chance(0.95) { members.append(member("device", field(string(pick(devices))))) }
        if chance(0.8) {
            members.append(
                member(
                    "node", field(string(pick(["n1", "n2", "", "b/c", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/0/1"])))))
        }
        if chance(0.2) {
            let beacons = [
                "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/0/1", "x/1/2", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/70000/1",
                "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0",
            ]
            members.append(member("beacon", field(string(pick(beacons)))))
        }
        if chance(0.2) {
            members.append(member(pick(["extra", "T", "rssi2", "meta", "tX"]), chance(0.5) ? wrong() : "null"))
        }
        if chance(0.08), let repeated = members.randomElement(using: &random) { members.append(repeated) }
        if chance(0.05) { members.append(member("rssi", number(-40))) }
        members.shuffle(using: &random)
        return space() + "{" + members.joined(separator: ",") + (members.isEmpty ? space() : "") + "}" + space()
    }

    mutating func pick2(_ first: Double, _ second: Double) -> Double {
        chance(0.5) ? first : second
    }

    /// A whole body.
    mutating func body(maximumItems: Int = 12) -> String {
        let count = Int.random(in: 0...maximumItems, using: &random)
        let items = (0..<count).map { _ in item() }
        var members: [String] = []
        if chance(0.97) { members.append(member("venue", chance(0.95) ? string("tiny") : pick(["null", "3", "[]"]))) }
        if chance(0.97) {
            members.append(
                member(
                    "sightings",
                    chance(0.97) ? "[" + items.joined(separator: ",") + space() + "]" : pick(["null", "{}", "1"])))
        }
        if chance(0.2) { members.append(member("source", wrong())) }
        members.shuffle(using: &random)
        return space() + "{" + members.joined(separator: ",") + space() + "}" + space()
    }

    /// `body` with one to three random edits (a byte replaced, inserted or removed, or the end cut off).
    mutating func mutated(_ body: String) -> [UInt8] {
        var bytes = Array(body.utf8)
        let interesting = Array("{}[],:\"\\ 0123456789eE.+-ntfu\u{7F}".utf8) + [0x00, 0x0A, 0xC3, 0xFF, 0xED]
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            guard !bytes.isEmpty else { break }
            let at = Int.random(in: 0..<bytes.count, using: &random)
            let byte =
                chance(0.8)
                ? interesting[Int.random(in: 0..<interesting.count, using: &random)]
                : UInt8.random(in: 0...255, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: bytes[at] = byte
            case 1: bytes.insert(byte, at: at)
            case 2: bytes.remove(at: at)
            default: bytes.removeSubrange(at...)
            }
        }
        return bytes
    }
}
