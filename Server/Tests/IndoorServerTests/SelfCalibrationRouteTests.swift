import Foundation
import Hummingbird
import HummingbirdTesting
import IndoorModel
import IndoorPositioning
import IndoorServer
import Testing

/// `GET /v1/venues/{id}/nodes` shows what self-calibration fitted from the nodes' sightings of each other (device
/// `node:<id>`), as the OpenAPI document describes it; absent while there is no fit.
@Suite struct SelfCalibrationRouteTests {
    /// Nine nodes spread over a 40 × 8 m floor, so that each hears others from 1 m to 40 m away.
    static let positions: [(x: Double, y: Double)] = [
        (0, 0), (1, 0), (3, 2), (7, 1), (12, 4), (18, 0), (25, 6), (33, 2), (40, 8),
    ]
    /// Each node's true RSSI at 1 m, dBm (spread about −61), and the exponent the links are made with.
    static let levels: [Double] = [-58, -63, -60, -65, -57, -62, -61, -59, -64]
    static let exponent = 2.7

    static var venueJSON: String {
        let nodes = positions.enumerated().map { index, at in #"{"id": "n\#(index)", "x": \#(at.x), "y": \#(at.y)}"# }
        return #"{"id": "lab", "name": "Lab", "nodes": [\#(nodes.joined(separator: ", "))]}"#
    }

    /// Every node heard by every other once a second for `seconds` s: `rssi = L(hearing node) − 10 · n · log10(d)`
    /// with 1.5 dB of seeded noise, in time order (each node's reports a tenth of a second after the previous node's).
    static func links(seconds: Int) -> [Row] {
        var random = SplitMix64(seed: 7)
        var sightings: [Row] = []
        for second in 0..<seconds {
            for (a, at) in positions.enumerated() {
                for (b, other) in positions.enumerated() where a != b {
                    let meters = ((at.x - other.x) * (at.x - other.x) + (at.y - other.y) * (at.y - other.y))
                        .squareRoot()
                    let rssi = levels[a] - 10 * exponent * log10(meters) + 1.5 * random.standardNormal()
                    sightings.append(
                        Row(
                            time: Double(second) + Double(a) / 10, device: "node:n\(b)", node: "n\(a)",
                            rssi: (rssi * 10).rounded() / 10))
                }
            }
        }
        return sightings
    }

    /// One sighting of a request's body.
    struct Row {
        var time: Double
        var device: String
        var node: String
        var rssi: Double
    }

    static func body(_ sightings: [Row]) -> String {
        let items = sightings.map {
            #"{"t": \#($0.time), "device": "\#($0.device)", "node": "\#($0.node)", "rssi": \#($0.rssi)}"#
        }
        return #"{"venue": "lab", "sightings": [\#(items.joined(separator: ", "))]}"#
    }

    static func nodes(_ client: any TestClientProtocol) async throws -> JSONValue {
        let answer = try await client.get("/v1/venues/lab/nodes")
        #expect(answer.status == .ok)
        let list = try JSONValue.parse(Data(buffer: answer.body))
        let validator = SchemaValidator(document: try JSONValue.parse(OpenAPIDocument.json))
        #expect(validator.problems(list, schema: "NodeList") == [])
        #expect(validator.undeclaredKeys(list, schema: "NodeList") == [])
        return list
    }

    @Test func theNodesRouteGivesTheFitOfTheLinks() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        let links = Self.links(seconds: 31)
        try await fixture.test { client in
            #expect(try await client.putVenue(Self.venueJSON, id: "lab").status == .created)
            #expect(try await client.post(Self.body(links)).status == .ok)
            let list = try await Self.nodes(client)
            #expect(list["nodeLinks"] == .object(["used": .number(Double(links.count)), "ignored": .number(0)]))
            let fit = try #require(list["selfCalibration"])
            let exponent = try #require(fit["pathLossExponent"]?.number)
            // The typical model's exponent (2) is the fit's prior: the links pull it most of the way to theirs.
            #expect(abs(exponent - Self.exponent) < 0.15, "exponent \(exponent)")
            #expect(fit["linksUsed"]?.number == 72 && fit["nodesFitted"]?.number == 9)
            #expect(
                fit["fittedAt"]?.number.map { $0 >= 10 && $0 <= 30.6 } == true, "\(String(describing: fit["fittedAt"]))"
            )
            let sigma = try #require(fit["residualSigma"]?.number)
            #expect(sigma >= 1 && sigma < 3)
            let nodes = try #require(list["nodes"]?.array)
            #expect(nodes.count == 9)
            var errors: [Double] = []
            for (index, node) in nodes.enumerated() {
                let own = try #require(node["selfCalibration"])
                #expect(own["links"]?.number == 8 && own["heardBy"]?.number == 8)
                #expect(own["pathLossExponent"]?.number == exponent)
                #expect(own["gain"]?.number != nil)
                errors.append(try #require(own["rssiAtOneMeter"]?.number) - Self.levels[index])
            }
            // Each level is known up to the venue's common level (traded against the nodes' gains as heard
            // devices): the errors are one constant within a decibel or so.
            let spread = try #require(errors.max()) - #require(errors.min())
            #expect(spread < 2, "level errors \(errors)")
            // The session's own fit, translated.
            let session = try #require(fixture.server.hub.nodeList(venue: "lab"))
            #expect(session.selfCalibration?.pathLossExponent == exponent)

            let metrics = try await client.get("/metrics").text
            #expect(metrics.contains(#"indoor_node_links_total{venue="lab",result="used"} \#(links.count)"#))
            // Nodes heard by nodes are no devices.
            #expect(metrics.contains("indoor_devices_tracked 0"))
        }
    }

    @Test func withoutAFitTheFieldsAreAbsent() async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.putVenue(Self.venueJSON, id: "lab").status == .created)
            // No link: a phone heard by the nodes.
            let phone = (0..<5).map { Row(time: Double($0), device: "p", node: "n\($0)", rssi: -60) }
            #expect(try await client.post(Self.body(phone)).status == .ok)
            var list = try await Self.nodes(client)
            #expect(list["selfCalibration"] == nil)
            #expect(list["nodeLinks"] == .object(["used": .number(0), "ignored": .number(0)]))
            #expect(try #require(list["nodes"]?.array).allSatisfy { $0["selfCalibration"] == nil })
            // Links too few to fit (two samples each, three needed), and one of a node the venue does not have.
            var few = Self.links(seconds: 2).map { row in
                var later = row
                later.time += 5
                return later
            }
            few.append(Row(time: 7, device: "node:elsewhere", node: "n0", rssi: -70))
            #expect(try await client.post(Self.body(few)).status == .ok)
            list = try await Self.nodes(client)
            #expect(list["selfCalibration"] == nil)
            #expect(list["nodeLinks"] == .object(["used": .number(144), "ignored": .number(1)]))
            #expect(try #require(list["nodes"]?.array).allSatisfy { $0["selfCalibration"] == nil })
            let metrics = try await client.get("/metrics").text
            #expect(metrics.contains(#"indoor_node_links_total{venue="lab",result="ignored"} 1"#))
            #expect(metrics.contains("indoor_devices_tracked 1"))
        }
    }
}
