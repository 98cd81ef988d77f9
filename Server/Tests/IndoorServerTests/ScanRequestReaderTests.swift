import Foundation
import IndoorModel
import IndoorServer
import IndoorSession
import Testing

/// The one-pass reader of `POST /v1/scans` bodies reads what `JSONDecoder` (``ScanRequest/decode(_:)``, the
/// decoding until now) reads, the same way; what it leaves to `JSONDecoder` keeps its refusal word for word.
@Suite("Scan request reader")
struct ScanRequestReaderTests {
    /// A request as compared: numbers by their bits.
    struct Read: Equatable, CustomStringConvertible {
        var geofence: String
        var items: [Result<Sighting, ItemError>]
        var duration: UInt64?
        var location: DeviceLocation?
        var device: String?

        init(_ request: ScanRequest) {
            geofence = request.geofence
            items = request.items.map(\.result)
            duration = request.duration?.bitPattern
            location = request.knownLocation
            device = request.device
        }

        var description: String {
            "\(geofence) \(items) \(duration.map { Double(bitPattern: $0) } as Any) \(location as Any) \(device as Any)"
        }
    }

    static func reader(_ bytes: [UInt8]) -> Read? {
        bytes.withUnsafeBytes { ScanRequestReader.read($0) }.map(Read.init)
    }

    static func reference(_ bytes: [UInt8]) -> Read? {
        (try? ScanRequest.decode(Data(bytes))).map(Read.init)
    }

    @Test(arguments: [
        #"{"geofence":"hq","sightings":[{"t":1,"device":"p","node":"n1","rssi":-60}]}"#,
        #"{"sightings":[{"t":1,"device":"p","node":"n1","rssi":-60},{"t":2,"rssi":-61}],"geofence":"h\u0071","duration":10,"device":null}"#,
        #" {"geofence":"hq","sightings":[],"knownLocation":{"latitude":51.5,"longitude":-0.12,"floor":2,"horizontalAccuracy":null,"x":[1]},"device":"phone-1","extra":{"a":[true]}} "#,
        #"{"geofence":"hq","sightings":[null,5,{"t":"x"}],"knownLocation":null,"duration":null}"#,
    ])
    func goodRequestsAreReadAsJSONDecoderReadsThem(body: String) throws {
        let bytes = Array(body.utf8)
        let read = try #require(Self.reader(bytes))
        #expect(read == Self.reference(bytes))
    }

    /// Bodies `JSONDecoder` refuses or might read otherwise: left to it, so the answer is its own.
    @Test(arguments: [
        #"{"sightings":[]}"#, #"{"geofence":1,"sightings":[]}"#, #"{"geofence":"hq","sightings":{}}"#,
        #"{"geofence":"hq","sightings":[],"duration":"10"}"#, #"{"geofence":"hq","sightings":[],"duration":1e400}"#,
        #"{"geofence":"hq","geofence":"x","sightings":[]}"#, #"{"geofence":"hq","sightings":[],"device":5}"#,
        #"{"geofence":"hq","sightings":[],"knownLocation":{"latitude":1}}"#,
        #"{"geofence":"hq","sightings":[],"knownLocation":{"latitude":1,"longitude":2,"floor":2.0}}"#,
        #"{"geofence":"hq","sightings":[],"knownLocation":true}"#, #"{"geofence":"hq","sightings":[],}"#,
        #"{"geofence":"a\u0000","sightings":[]}"#, "[]", "", #"{"geofence":"hq","sightings":[]} x"#,
    ])
    func otherBodiesAreLeftToJSONDecoder(body: String) {
        #expect(Self.reader(Array(body.utf8)) == nil)
    }

    /// Seeded random requests (the sighting items of the batch reader's tests, every top-level field in every
    /// form) and random byte edits of them: where the reader reads, `JSONDecoder` reads the same; it reads most
    /// of the requests `JSONDecoder` reads.
    @Test(arguments: 0..<4)
    func randomRequestsAgreeWithJSONDecoder(stream: UInt64) {
        var random = RandomSightingBatch(seed: 0x5CA7 &+ stream)
        var differences = 0
        var readHere = 0
        var readThere = 0
        for round in 0..<400 {
            var members: [String] = []
            if random.chance(0.97) { members.append(random.member("geofence", random.field(random.string("hq")))) }
            let items = (0..<Int.random(in: 0...6, using: &random.random)).map { _ in random.item() }
            if random.chance(0.97) {
                members.append(random.member("sightings", "[" + items.joined(separator: ",") + "]"))
            }
            if random.chance(0.4) { members.append(random.member("duration", random.field(random.number(10)))) }
            if random.chance(0.4) { members.append(random.member("device", random.field(random.string("phone-1")))) }
            if random.chance(0.4) {
                var location = [
                    random.member("latitude", random.number(51.5)), random.member("longitude", random.number(-0.12)),
                ]
                if random.chance(0.5) {
                    location.append(random.member("floor", random.pick(["2", "-1", "0", "2.0", "null", "1e0"])))
                }
                if random.chance(0.3) {
                    location.append(random.member("horizontalAccuracy", random.field(random.number(5))))
                }
                if random.chance(0.2) {
                    location.append(random.member("timestamp", random.field(random.number(1.7e9))))
                }
                location.shuffle(using: &random.random)
                members.append(
                    random.member("knownLocation", random.field("{" + location.joined(separator: ",") + "}")))
            }
            if random.chance(0.2) { members.append(random.member("other", random.wrong())) }
            members.shuffle(using: &random.random)
            let text = random.space() + "{" + members.joined(separator: ",") + random.space() + "}" + random.space()
            let body = round % 4 == 3 ? random.mutated(text) : Array(text.utf8)
            let read = Self.reader(body)
            let reference = Self.reference(body)
            if reference != nil { readThere += 1 }
            if read != nil { readHere += 1 }
            if let read, read != reference {
                differences += 1
                if differences <= 3 {
                    Issue.record(
                        "\(String(decoding: body, as: UTF8.self))\nreader: \(read)\nreference: \(reference as Any)")
                }
            }
        }
        #expect(differences == 0)
        #expect(Double(readHere) >= 0.8 * Double(readThere), "\(readHere) of \(readThere) read in one pass")
    }
}
