import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorServer
import Testing

/// The answer of `POST /v1/sightings` written from the stored events' JSON is byte for byte what `JSONEncoder`
/// makes of an ``IngestResponse``, the answer until now.
@Suite("The ingest answer's bytes")
struct IngestResponseBytesTests {
    /// Both ways of writing the answer, for the same content.
    static func both(
        venue: String, accepted: Int, rejected: Int, stored: [StoredEvent], errors: [ItemError], spliced: Bool = true
    ) throws -> (written: String, encoded: String) {
        var fixes: [Fix] = []
        var zones: [ZoneEvent] = []
        for event in stored {
            switch event.event {
            case .fix(let fix): fixes.append(fix)
            case .zone(let zone): zones.append(zone)
            case .occupancy, .person: continue
            }
        }
        let encoder = JSONFormat.encoder()
        let encoded = try encoder.encode(
            IngestResponse(
                venue: venue, accepted: accepted, rejected: rejected, fixes: fixes, events: zones,
                lastEventId: stored.last?.id, errors: errors))
        let eventJSON = spliced ? try stored.map { try $0.event.json(encoder) } : []
        let written = try IngestResponse.json(
            venue: venue, accepted: accepted, rejected: rejected, stored: stored, eventJSON: eventJSON, errors: errors)
        return (String(decoding: written, as: UTF8.self), String(decoding: encoded, as: UTF8.self))
    }

    @Test func nothingStored() throws {
        let (written, encoded) = try Self.both(
            venue: "hq", accepted: 0, rejected: 2, stored: [],
            errors: [
                ItemError(index: 0, field: "sightings[0].t", message: "t is missing"),
                ItemError(index: 3, field: "sightings[3].node", message: "node 'x/\"y' is not one of the venue's"),
            ])
        #expect(written == encoded)
        #expect(!written.contains("lastEventId"))
    }

    /// Seeded random answers: fixes with and without floor and coordinates, zone events of every kind, errors,
    /// venues with escapes; with the events' JSON given and without it.
    @Test(arguments: 0..<4)
    func randomAnswersAreTheEncodersBytes(stream: UInt64) throws {
        var random = SplitMix64(seed: 0x1A5E_0000 &+ stream)
        let venues = ["hq", "caf\u{E9}/2", "a\"b\\c", "\u{1F600}", "tab\tline\n"]
        let devices = ["phone-1", "d\u{E9}v", "x/y", "q\"", ""]
        for round in 0..<200 {
            var stored: [StoredEvent] = []
            var id = Int64.random(in: 1...1_000_000, using: &random)
            for _ in 0..<Int.random(in: 0...8, using: &random) {
                let device = devices.randomElement(using: &random) ?? "p"
                let time = Double.random(in: 0...2e9, using: &random)
                let event: ServerEvent
                if Bool.random(using: &random) {
                    event = .fix(
                        Fix(
                            time: time, device: device,
                            position: Point3D(
                                x: .random(in: -100...100, using: &random), y: .random(in: -1...1, using: &random),
                                z: 0),
                            floor: Bool.random(using: &random) ? Int.random(in: -2...9, using: &random) : nil,
                            accuracy: .random(in: 0...30, using: &random),
                            confidence: .random(in: 0...1, using: &random),
                            method: ["auto", "nonlinear", "knn"].randomElement(using: &random) ?? "auto",
                            coordinate: Bool.random(using: &random)
                                ? GeoCoordinate(
                                    latitude: 51.5 + .random(in: 0...0.01, using: &random), longitude: -0.12)
                                : nil))
                } else {
                    let kind = [ZoneEvent.Kind.checkIn, .checkOut, .dwell].randomElement(using: &random) ?? .checkIn
                    event = .zone(
                        ZoneEvent(
                            kind: kind, time: time, zone: "z\(Int.random(in: 1...5, using: &random))",
                            zoneName: "Room \u{E9}/\(round)", device: device, trigger: .fence,
                            reason: kind == .checkOut ? .left : nil,
                            dwell: kind == .checkIn ? nil : .random(in: 0...600, using: &random)))
                }
                stored.append(StoredEvent(id: id, venue: "v", event: event))
                id += Int64.random(in: 1...3, using: &random)
            }
            let errors = (0..<Int.random(in: 0...3, using: &random)).map { index in
                ItemError(index: index * 2, field: "sightings[\(index * 2)].rssi", message: "rssi \u{E9} \"\(index)\"")
            }
            let (written, encoded) = try Self.both(
                venue: venues.randomElement(using: &random) ?? "hq", accepted: Int.random(in: 0...100, using: &random),
                rejected: errors.count, stored: stored, errors: errors, spliced: round % 5 != 0)
            #expect(written == encoded)
        }
    }
}
