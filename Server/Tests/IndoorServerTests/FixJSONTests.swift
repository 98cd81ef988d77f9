import Foundation
import IndoorModel
import IndoorServer
import Testing

/// A fix's JSON written by ``FixJSON`` is byte for byte what `JSONEncoder` (`JSONFormat.encoder()`) makes of it,
/// and ``ServerEvent/json(_:)`` gives `JSONEncoder`'s bytes (or its error) for every fix.
@Suite("A fix's JSON written directly")
struct FixJSONTests {
    /// A random number of one of the forms `Double.description` writes differently: whole, with decimals, tiny,
    /// huge (with an exponent), negative, negative zero, on a half millimetre, beyond what `Fix` rounds.
    static func number(_ random: inout SplitMix64) -> Double {
        switch Int.random(in: 0..<12, using: &random) {
        case 0: Double(Int.random(in: -1000...1000, using: &random))
        case 1: Double.random(in: -100...100, using: &random)
        case 2: Double.random(in: 0..<1e-3, using: &random)
        case 3: Double.random(in: 1e9...1e22, using: &random)
        case 4: -Double.random(in: 1e14...1e17, using: &random)
        case 5: -0.0
        case 6: Double(Int.random(in: -100_000...100_000, using: &random)) / 1000 + 0.0005
        case 7: Double.random(in: 1e-300...1e-290, using: &random)
        case 8: Double(Int.random(in: 0...1_000_000, using: &random)) / 8
        case 9: Double.random(in: 1.7e9...1.8e9, using: &random)
        case 10: Double.random(in: -1e-5...1e-5, using: &random)
        default: Double.random(in: 0...1, using: &random)
        }
    }

    static func randomFix(_ random: inout SplitMix64, texts: [String]) -> Fix {
        func text() -> String { texts[Int.random(in: 0..<texts.count, using: &random)] }
        let floor: Int? = Bool.random(using: &random) ? nil : Int.random(in: -3...40, using: &random)
        let coordinate: GeoCoordinate? =
            Bool.random(using: &random)
            ? nil
            : GeoCoordinate(
                latitude: Double.random(in: -90...90, using: &random),
                longitude: Bool.random(using: &random) ? number(&random) : Double.random(in: -180...180, using: &random)
            )
        return Fix(
            time: number(&random), device: text(),
            position: Point3D(x: number(&random), y: number(&random), z: number(&random)), floor: floor,
            accuracy: number(&random), confidence: number(&random), method: text(), coordinate: coordinate)
    }

    /// Texts with nothing to escape, and texts `JSONEncoder` escapes or that are not ASCII.
    static let plainTexts = [
        "p", "device-42", "a/b", "weighted-centroid", "auto", "x y", "~!@#$%^&*()_+{}[]|:;'<>,.?", "",
    ]
    static let otherTexts = ["caf\u{E9}", "\u{1F600}", "quote\"", "back\\slash", "tab\t", "line\n", "\u{0}", "\u{7F}"]

    @Test(arguments: 0..<4)
    func randomFixesAreTheEncodersBytes(stream: UInt64) throws {
        var random = SplitMix64(seed: 0xF1_0000 &+ stream)
        let encoder = JSONFormat.encoder()
        var written = 0
        for _ in 0..<2000 {
            let fix = Self.randomFix(&random, texts: Self.plainTexts + Self.otherTexts)
            let encoded = try encoder.encode(fix)
            let direct = FixJSON.json(fix)
            if let direct {
                #expect(
                    String(decoding: direct, as: UTF8.self) == String(decoding: encoded, as: UTF8.self),
                    "\(fix)")
                written += 1
            }
            let plain = Self.plainTexts.contains(fix.device) && Self.plainTexts.contains(fix.method)
            #expect((direct != nil) == plain, "\(fix)")
            #expect(try ServerEvent.fix(fix).json(encoder) == encoded)
        }
        // Half the texts are plain, so about a quarter of the fixes have a plain device and method: the direct
        // writer wrote those.
        #expect(written > 400)
    }

    @Test func aNumberThatIsNotFiniteIsLeftToTheEncoderWhichRefusesIt() throws {
        let encoder = JSONFormat.encoder()
        for bad in [Double.nan, .infinity, -.infinity] {
            var fix = Fix(
                time: 1, device: "p", position: Point3D(x: 1, y: 2, z: 0), accuracy: 1, confidence: 0.5, method: "m")
            fix.accuracy = bad
            #expect(FixJSON.json(fix) == nil)
            #expect(throws: (any Error).self) { try ServerEvent.fix(fix).json(encoder) }
            fix.accuracy = 1
            fix.time = bad
            #expect(FixJSON.json(fix) == nil)
            #expect(throws: (any Error).self) { try ServerEvent.fix(fix).json(encoder) }
        }
    }

    @Test func aTypicalFix() throws {
        let fix = Fix(
            time: 1_700_000_123.25, device: "phone-7", position: Point3D(x: 11.374000000000024, y: -2, z: 0),
            floor: 1, accuracy: 2.5, confidence: 0.8125, method: "auto",
            coordinate: GeoCoordinate(latitude: 47.123456789, longitude: 8.5))
        let direct = try #require(FixJSON.json(fix))
        #expect(
            String(decoding: direct, as: UTF8.self)
                == #"{"accuracy":2.5,"confidence":0.813,"device":"phone-7","floor":1,"latitude":47.12345679,"#
                + #""longitude":8.5,"method":"auto","t":1700000123.25,"x":11.374,"y":-2,"z":0}"#)
    }

    /// A length that rounds to zero from below is written 0, not -0, by both writers (a store that keeps the fix's
    /// columns and one that keeps its JSON answer the same bytes).
    @Test func aLengthRoundingToZeroIsZeroNotMinusZero() throws {
        let fix = Fix(
            time: 5, device: "p", position: Point3D(x: -0.0001, y: -0.0, z: 0), accuracy: 1, confidence: 0.5,
            method: "auto")
        let direct = String(decoding: try #require(FixJSON.json(fix)), as: UTF8.self)
        let encoded = String(decoding: try JSONFormat.encoder().encode(fix), as: UTF8.self)
        #expect(direct == encoded)
        #expect(direct.contains(#""x":0,"y":0,"#) && !direct.contains("-0"))
    }
}
