import Foundation
import IndoorModel
import IndoorServer
import Testing

/// The one-pass reader of `POST /v1/sightings` bodies gives what the `JSONDecoder`-based ``SightingBatch`` gives.
@Suite("Sighting batch reader")
struct SightingBatchReaderTests {
    /// What reading a body gave: a refusal of the whole body, or the sightings and the per-item errors.
    enum Outcome: Equatable, CustomStringConvertible {
        /// `message` is `nil` for a syntax error, whose wording is the reader's own.
        case refused(field: String?, code: String, message: String?)
        case read(venue: String, count: Int, sightings: [Sighting], indices: [Int], errors: [ItemError])

        var description: String {
            switch self {
            case .refused(let field, let code, let message): "refused \(field ?? "-") \(code): \(message ?? "(syntax)")"
            case .read(let venue, let count, let sightings, let indices, let errors):
                "read \(venue) \(count): \(zip(indices, sightings).map { "\($0): \($1)" }) errors \(errors)"
            }
        }

        static func refusal(_ error: APIError) -> Outcome {
            let syntax = error.field == "body" && error.message.hasPrefix("not valid JSON")
            return .refused(field: error.field, code: error.code, message: syntax ? nil : error.message)
        }
    }

    static func reference(_ bytes: [UInt8]) -> Outcome {
        do {
            let batch = try SightingBatch.decode(Data(bytes))
            var sightings: [Sighting] = []
            var indices: [Int] = []
            var errors: [ItemError] = []
            for (index, item) in batch.items.enumerated() {
                switch item.result {
                case .success(let sighting):
                    sightings.append(sighting)
                    indices.append(index)
                case .failure(let error): errors.append(error)
                }
            }
            return .read(
                venue: batch.venue, count: batch.items.count, sightings: sightings, indices: indices, errors: errors)
        } catch let error as APIError {
            return .refusal(error)
        } catch {
            return .refused(field: nil, code: "\(type(of: error))", message: "\(error)")
        }
    }

    static func reader(_ bytes: [UInt8]) -> Outcome {
        do {
            let batch = try bytes.withUnsafeBytes { try SightingBatchReader.read($0) }
            return .read(
                venue: batch.venue, count: batch.count, sightings: batch.sightings, indices: batch.indices,
                errors: batch.errors)
        } catch let error as BatchBodyError {
            return .refusal(APIError.badRequest(field: error.field, error.message, code: "invalidJSON"))
        } catch {
            return .refused(field: nil, code: "\(type(of: error))", message: "\(error)")
        }
    }

    @Test(arguments: [
        #"{"venue": "tiny", "sightings": [{"t": 0, "device": "p", "node": "n1", "rssi": -60}]}"#,
        #"{"sightings": [{"rssi": -6e1, "node": "n1", "t": -0, "device": "p", "tx": null}], "venue": "tiny"}"#,
        #" { "venue" : "t\u0069ny" , "sightings" : [ { "t" : 1.5E+2 , "device" : "\ud83d\ude00" , "node" : "a\/b" , "rssi" : -60.25 , "x" : {"y": [1, {"z": null}]} } ] } "#,
        #"{"venue": "tiny", "sightings": [{"t": 0, "device": "p", "node": "n1", "rssi": 1e999}]}"#,
        #"{"venue": "tiny", "sightings": [{"t": 0, "device": "p", "node": "n1", "rssi": -500}]}"#,
        #"{"venue": "tiny", "sightings": [{"t": 0, "device": "p", "rssi": -50}]}"#,
        #"{"venue": "tiny", "sightings": [{"t": "0", "device": "p", "node": "n1", "rssi": -50}]}"#,
        #"{"venue": "tiny", "sightings": [{"t": null, "device": "p", "node": "n1", "rssi": -50}]}"#,
        #"{"venue": "tiny", "sightings": [{"t": 1, "device": null, "node": "n1", "rssi": -50}]}"#,
        #"{"venue": "tiny", "sightings": [{"t": 1, "device": "", "node": "n1", "rssi": -50}]}"#,
        #"{"venue": "tiny", "sightings": [{"t": 1, "device": "p", "node": "", "rssi": -50}]}"#,
        #"{"venue": "tiny", "sightings": [{"t": 1, "device": "p", "beacon": "x/1/2", "rssi": -50}]}"#,
        #"{"venue": "tiny", "sightings": [{"t": 1, "device": "p", "beacon": 5, "node": "n1", "rssi": -50}]}"#,
        #"{"venue": "tiny", "sightings": [{"t": 1, "device": "p", "node": "n1", "rssi": -50, "tx": 300}]}"#,
        #"{"venue": "tiny", "sightings": [{"t": 1, "t": 2, "device": "p", "node": "n1", "rssi": -50}]}"#,
        #"{"venue": "tiny", "venue": "other", "sightings": []}"#,
        #"{"venue": "tiny", "sightings": [null, 5, {}]}"#,
        #"{"venue": "tiny", "sightings": null}"#,
        #"{"venue": null, "sightings": []}"#,
        #"{"venue": 3, "sightings": []}"#,
        #"{"sightings": []}"#,
        #"{"venue": "tiny"}"#,
        #"{"venue": "tiny", "sightings": {}}"#,
        #"[]"#,
        #"null"#,
        #"not json"#,
        #""#,
        #"{"venue": "tiny", "sightings": [{"t": 1, "device": "p", "node": "n1", "rssi": -50}]} x"#,
        #"{"venue": "tiny", "sightings": [{"t": 1e-400, "device": "p", "node": "n1", "rssi": -50}]}"#,
        #"{"venue": "tiny", "sightings": [{"t": 1, "device": "\ud83d", "node": "n1", "rssi": -50}]}"#,
    ])
    func readsAsTheReferenceDoes(body: String) {
        let bytes = Array(body.utf8)
        #expect(Self.reader(bytes) == Self.reference(bytes), "\(body)")
    }

    /// `JSONDecoder` checks only brackets and quotes before decoding and reads numbers and escapes lazily, so it
    /// takes some text that is not JSON (a trailing comma, a leading zero, a bad escape in a field it never reads).
    /// The reader refuses such a body as a whole, naming where; JSONSerialization agrees it is not JSON (except for
    /// the trailing comma, which it lets through too).
    @Test(arguments: [
        (#"{"venue": "tiny", "sightings": [{"t": 1, "device": "p", "node": "n1", "rssi": -50,}]}"#, false),
        (#"{"venue": "tiny", "sightings": [{"t": 01, "device": "p", "node": "n1", "rssi": -50}]}"#, true),
        (#"{"venue": "tiny", "sightings": [{"t": 72.6.0, "device": "p", "node": "n1", "rssi": -50}]}"#, true),
        (#"{"venue": "tiny", "sightings": [{"t": 1, "device": "p", "node": "n1", "rssi": -50, "x": "\u00G0"}]}"#, true),
    ])
    func malformedJSONIsRefusedAsAWhole(body: String, serializationRefuses: Bool) {
        let bytes = Array(body.utf8)
        #expect(Self.reader(bytes) == .refused(field: "body", code: "invalidJSON", message: nil))
        #expect(Self.reference(bytes) != Self.reader(bytes))
        #expect(Self.isMalformed(bytes) == serializationRefuses)
    }

    /// Whether JSONSerialization, a parser other than `JSONDecoder`'s, refuses `bytes`.
    static func isMalformed(_ bytes: [UInt8]) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) == nil
    }

    @Test func aSyntaxErrorNamesItsByteLineAndColumn() {
        let body = "{\"venue\": \"tiny\",\n \"sightings\": [{\"t\" 1}]}"
        let outcome = Self.reader(Array(body.utf8))
        guard case .refused(let field, let code, _) = outcome else {
            Issue.record("read \(outcome)")
            return
        }
        #expect(field == "body")
        #expect(code == "invalidJSON")
        do {
            _ = try Array(body.utf8).withUnsafeBytes { try SightingBatchReader.read($0) }
        } catch let error as BatchBodyError {
            #expect(
                error.message
                    == "not valid JSON: line 2, column 21 (byte 38): expected ':' after an object key, found '1'")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test(arguments: 0..<8)
    func randomBatchesReadAsTheReferenceDoes(stream: UInt64) {
        var random = RandomSightingBatch(seed: 0x51_6874 &+ stream)
        var differences = 0
        for _ in 0..<400 {
            let body = Array(random.body().utf8)
            let reader = Self.reader(body)
            let reference = Self.reference(body)
            if reader != reference {
                differences += 1
                if differences <= 3 {
                    Issue.record(
                        "\(String(decoding: body, as: UTF8.self))\nreader:    \(reader)\nreference: \(reference)")
                }
            }
        }
        #expect(differences == 0)
    }

    /// Random edits of good bodies: the reader never crashes, and gives what the reference gives except for text
    /// that is not JSON, which it refuses as a whole (see ``malformedJSONIsRefusedAsAWhole(body:)``).
    @Test(arguments: 0..<8)
    func mutatedBatchesNeverCrashAndAgreeWithTheReference(stream: UInt64) {
        var random = RandomSightingBatch(seed: 0xF022 &+ stream)
        var differences = 0
        for _ in 0..<400 {
            let body = random.mutated(random.body(maximumItems: 4))
            let reader = Self.reader(body)
            let reference = Self.reference(body)
            let refusedAsNotJSON = reader == .refused(field: "body", code: "invalidJSON", message: nil)
            if reader != reference, !(refusedAsNotJSON && Self.isMalformed(body)) {
                differences += 1
                if differences <= 3 {
                    Issue.record(
                        "\(body)\n\(String(decoding: body, as: UTF8.self))\nreader:    \(reader)\nreference: \(reference)"
                    )
                }
            }
        }
        #expect(differences == 0)
    }
}
