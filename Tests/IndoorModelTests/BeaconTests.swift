import Foundation
import Testing

@testable import IndoorModel

@Suite("Beacon identity and conditions")
struct BeaconTests {
    let uuidText = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    @Test func parsesAndPrintsTheTextForm() throws {
        let beacon = try BeaconID(parsing: "e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/42")
        #expect(beacon.major == 1)
        #expect(beacon.minor == 42)
        #expect(beacon.text == "\(uuidText)/1/42")
        #expect(try BeaconID(parsing: beacon.text) == beacon)
    }

    @Test(arguments: [
        ("", "beacon identity '' is not UUID/major/minor"),
        (
            "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1",
            "beacon identity 'E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1' is not UUID/major/minor"
        ),
        ("nope/1/2", "beacon identity 'nope/1/2': 'nope' is not a UUID"),
        (
            "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/65536/2",
            "beacon identity 'E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/65536/2': major '65536' is not an integer in 0...65535"
        ),
        (
            "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/-2",
            "beacon identity 'E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/-2': minor '-2' is not an integer in 0...65535"
        ),
    ])
    func rejectsBadIdentities(text: String, message: String) {
        #expect(throws: FormatError(code: .invalidValue, message: message)) { try BeaconID(parsing: text) }
    }

    @Test func conditionsMatchWithWildcards() throws {
        let uuid = try #require(UUID(uuidString: uuidText))
        let other = try #require(UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
        let beacon = BeaconID(uuid: uuid, major: 3, minor: 7)
        #expect(BeaconCondition(uuid: uuid).matches(beacon))
        #expect(BeaconCondition(uuid: uuid, major: 3).matches(beacon))
        #expect(!BeaconCondition(uuid: uuid, major: 4).matches(beacon))
        #expect(BeaconCondition(uuid: uuid, major: 3, minor: 7).matches(beacon))
        #expect(!BeaconCondition(uuid: uuid, major: 3, minor: 8).matches(beacon))
        #expect(!BeaconCondition(uuid: other).matches(beacon))
        #expect(BeaconCondition(beacon).matches(beacon))
    }

    @Test(arguments: [
        "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0",
        "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/3",
        "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/3/7",
    ])
    func conditionTextRoundTrips(text: String) throws {
        let condition = try BeaconCondition(parsing: text)
        #expect(condition.text == text)
        let json = try JSONFormat.encoder().encode([condition])
        #expect(try JSONDecoder().decode([BeaconCondition].self, from: json) == [condition])
    }

    @Test(arguments: [
        (
            "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/2/3",
            "beacon condition 'E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/2/3' is not UUID, UUID/major or UUID/major/minor"
        ),
        (
            "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/x",
            "beacon condition 'E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/x': major 'x' is not an integer in 0...65535"
        ),
        (
            "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/",
            "beacon condition 'E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/': minor '' is not an integer in 0...65535"
        ),
        ("E2C56DB5/1", "beacon condition 'E2C56DB5/1': 'E2C56DB5' is not a UUID"),
    ])
    func conditionRejectsBadText(text: String, message: String) {
        #expect(throws: FormatError(code: .invalidValue, message: message)) { try BeaconCondition(parsing: text) }
    }

    // In JSON both are strings; a bad one names the field and the part that is wrong.
    @Test func badTextInJSONNamesTheField() throws {
        let error = try #require(throws: FormatError.self) {
            try JSONFormat.decode(
                [BeaconID].self, from: Data(#"["\#(uuidText)/1/2", "\#(uuidText)/1"]"#.utf8), file: "b.json")
        }
        #expect(error.description == "b.json: [1]: beacon identity '\(uuidText)/1' is not UUID/major/minor")
        let condition = try #require(throws: FormatError.self) {
            try JSONFormat.decode([BeaconCondition].self, from: Data(#"["nope"]"#.utf8), file: "c.json")
        }
        #expect(condition.description == "c.json: [0]: beacon condition 'nope': 'nope' is not a UUID")
        #expect(
            String(decoding: try JSONFormat.encoder().encode([try BeaconID(parsing: "\(uuidText)/1/2")]), as: UTF8.self)
                == #"["\#(uuidText)/1/2"]"#)
    }

    @Test func sightingSourceReadsBeaconsAndNodeIDs() throws {
        #expect(SightingSource(field: "sensor10") == .node("sensor10"))
        #expect(SightingSource(field: "a/b") == .node("a/b"))
        let beacon = try BeaconID(parsing: "\(uuidText)/1/2")
        #expect(SightingSource(field: "\(uuidText)/1/2") == .beacon(beacon))
        #expect(SightingSource.beacon(beacon).text == "\(uuidText)/1/2")
    }
}
