import IndoorGateways
import Testing

/// The one-pass payload reader answers as `JSONDecoder` does (``JSONValue/decodedByFoundation(_:)``, the decoding
/// until now): where it reads a payload, the same value to the bit; where it does not, the caller asks
/// `JSONDecoder`, so what is accepted, refused and read stays the same.
@Suite("Gateway payloads read in one pass")
struct JSONPayloadReaderTests {
    /// What the reader gives for `payload`: `nil` when it leaves the payload to `JSONDecoder`.
    static func reader(_ payload: [UInt8]) -> JSONValue? {
        payload.withUnsafeBytes { JSONPayloadReader.value($0) }
    }

    /// `nil` when the reader agrees with the reference on `payload`, else what differs.
    static func disagreement(_ payload: [UInt8]) -> String? {
        let reference = try? JSONValue.decodedByFoundation(payload)
        guard let read = reader(payload) else { return nil }
        guard let reference else { return "the reader read \(read); JSONDecoder refuses it" }
        return read.isSame(as: reference) ? nil : "the reader read \(read); JSONDecoder \(reference)"
    }

    /// Payloads gateways send and every JSON form they may take: read in one pass, as `JSONDecoder` reads them.
    @Test(arguments: [
        #"{"id":"70:81:94:0D:FB:AA","rssi":-64,"mac_type":1}"#,
        #"{"rssi":"-72.50","rssi@1m":-65,"distance":1.23,"speed":0,"mac":"d0c0ffee0002","name":null}"#,
        #"{"id":"irk:0123","rssi":-71.5,"raw":-71,"var":0.8,"int":1,"disc":"tag"}"#,
        #"{"uptime":3600,"adverts":12,"seen":4,"reported":3,"firstFree":2e5,"maxHeap":1E+2}"#,
        #"{"a":[1,{"b":null}],"c":true,"d":false,"e":[],"f":{}}"#,
        #" {"a" : -0 , "b":0.1e-5,"c":123456789012345678901234567890} "#,
        #"{"a":"\u00e9\/\n\t\"\\","b":"\uD83D\uDE00","c":"d\#u{E9}v"}"#,
        #"{"ab":1,"a":1,"a":2}"#, "{\"a\":1}\n\r\t", #"{"a":4.9e-324,"b":1e308,"c":2e-308}"#,
    ])
    func goodPayloadsAreReadAsJSONDecoderReadsThem(payload: String) throws {
        let bytes = Array(payload.utf8)
        let read = try #require(Self.reader(bytes))
        let reference = try JSONValue.decodedByFoundation(bytes)
        #expect(read.isSame(as: reference), "\(read) against \(reference)")
    }

    /// What `JSONDecoder` takes though it is not strict JSON, what it refuses, and strings with U+0000: left to
    /// `JSONDecoder`, which answers as before.
    @Test(arguments: [
        #"{"a":1,}"#, "[1,2,]", #"{"a":0e4}"#, #"{"a":-0E-1}"#, #"{"a\u0000b":1}"#, #"{"a":{"b":1,},}"#,
        "\u{FEFF}{\"a\":1}", #"{"a":"x\u0000"}"#,
        #"{"a":01}"#,
        #"{"a":1.}"#, #"{"a":-}"#, #"{"a":"\u00"}"#, #"{"a":1e400}"#, #"{"a":1e-400}"#, #"{"a":"\ud800"}"#,
        #"{"a":tru}"#, #"{"a":1} x"#, #"{"a":.5}"#, #"{"a":+5}"#, #"{"a":NaN}"#, "{a:1}", #"{"a":1 "b":2}"#,
        #"{"a":1,,"b":2}"#, #"{"a":[,1]}"#, "", "  ", "\u{FEFF}", #"{"a":"abc"#, "{\"a\":1}\u{0B}",
    ])
    func otherTextIsLeftToJSONDecoder(payload: String) {
        #expect(Self.reader(Array(payload.utf8)) == nil)
    }

    /// UTF-16, which `JSONDecoder` recognises, is left to it too.
    @Test func utf16IsLeftToJSONDecoder() throws {
        let units = Array(#"{"rssi":-60}"#.utf16)
        let little = units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(Self.reader(little) == nil)
        guard case .object(let object) = JSONValue.object(little) else {
            Issue.record("UTF-16 is no longer read")
            return
        }
        #expect(object.count == 1)
    }

    /// Seeded random payloads of the gateways' kind (flat and nested objects, every number form, escapes,
    /// whitespace anywhere, repeated keys) and random byte edits of them: the reader never disagrees with
    /// `JSONDecoder`, and reads most of the well-formed ones itself (not those with numbers no `Double` holds).
    @Test(arguments: 0..<8)
    func randomPayloadsAgreeWithJSONDecoder(stream: UInt64) {
        var random = RandomPayload(seed: 0x6A50_4E00 &+ stream)
        var differences = 0
        var readHere = 0
        var wellFormed = 0
        for round in 0..<600 {
            let text = random.object(depth: 0)
            var payload = Array(text.utf8)
            if round % 3 == 2 {
                payload = random.mutated(payload)
            } else {
                wellFormed += 1
                if Self.reader(payload) != nil { readHere += 1 }
            }
            if let difference = Self.disagreement(payload) {
                differences += 1
                if differences <= 3 { Issue.record("\(String(decoding: payload, as: UTF8.self)): \(difference)") }
            }
        }
        #expect(differences == 0)
        #expect(Double(readHere) >= 0.75 * Double(wellFormed), "\(readHere) of \(wellFormed) read in one pass")
    }
}

/// Random gateway-like JSON payloads from a seeded generator.
struct RandomPayload {
    var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    mutating func below(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }

    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick(_ choices: [String]) -> String { choices[below(choices.count)] }

    mutating func space() -> String { chance(60) ? "" : pick([" ", "\n", "\t", "\r\n  ", "  "]) }

    mutating func number() -> String {
        let whole = below(200) - 150
        switch below(12) {
        case 0: return "\(whole)"
        case 1: return "\(whole).\(below(1000))"
        case 2: return "\(whole)e\(below(5))"
        case 3: return "\(whole)E-\(below(30))"
        case 4: return "-0"
        case 5: return "\(whole).5e+\(below(300))"
        case 6: return pick(["1e999", "-1e999", "1e-400", "4.9e-324", "2.2250738585072014e-308"])
        case 7: return "\(whole)000000000000000000001.25"
        case 8: return "0.\(String(repeating: "0", count: below(30)))\(below(99) + 1)"
        default: return "\(Double(whole) / 8)"
        }
    }

    mutating func string() -> String {
        let texts = [
            "kitchen", "70:81:94:0D:FB:AA", "irk:0123abcd", "d\u{E9}v", "\u{1F600}x", "", "a\\\"b", "tab\\tx",
            "\\ud83d\\ude00", "\\u00E9\\/", "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0-0-1", "-72.50",
        ]
        return "\"" + pick(texts) + "\""
    }

    mutating func value(depth: Int) -> String {
        switch below(depth < 3 ? 10 : 7) {
        case 0, 1, 2: return number()
        case 3, 4: return string()
        case 5: return pick(["true", "false", "null"])
        case 6: return pick(["[]", "{}", "[1, {\"a\": null}]"])
        case 7, 8: return object(depth: depth + 1)
        default:
            let count = below(4)
            return "[" + (0..<count).map { _ in space() + value(depth: depth + 1) + space() }.joined(separator: ",")
                + "]"
        }
    }

    mutating func object(depth: Int) -> String {
        let keys = ["id", "rssi", "rssi@1m", "raw", "distance", "mac", "manufacturerdata", "name", "tx", "a\\u00e9"]
        var members: [String] = []
        for _ in 0..<below(8) {
            members.append(space() + "\"" + pick(keys) + "\"" + space() + ":" + space() + value(depth: depth) + space())
        }
        return space() + "{" + members.joined(separator: ",") + space() + "}" + space()
    }

    /// One to three random edits: a byte replaced, inserted or removed.
    mutating func mutated(_ payload: [UInt8]) -> [UInt8] {
        var bytes = payload
        let interesting = Array("{}[],:\"\\ 0123456789eE.+-ntfu\u{7F}".utf8) + [0x00, 0x0A, 0xC3, 0xFF, 0xED, 0xEF]
        for _ in 0..<(1 + below(3)) where !bytes.isEmpty {
            let at = below(bytes.count)
            let byte = chance(80) ? interesting[below(interesting.count)] : UInt8(truncatingIfNeeded: random.next())
            switch below(3) {
            case 0: bytes[at] = byte
            case 1: bytes.insert(byte, at: at)
            default: bytes.remove(at: at)
            }
        }
        return bytes
    }
}
