import Foundation
import IndoorModel
import IndoorSession
import IndoorTestSupport
import Testing

@Suite("ScanResult JSON")
struct ScanResultTests {
    let result = ScanResult(
        floor: 2, latitude: 52.520_008_123_456, longitude: 13.404_954_987_654, x: 12.345_6, y: 3.000_4,
        accuracy: 1.234_56, confidence: 0.712_34, timestamp: 1_700_000_010.123_4, geofenceId: "hq-a", venueId: "hq",
        method: "nonlinear+track", beacons: 6, duration: 10)

    @Test func theKeysAreExactlyTheDocumentedOnesWithUnitsAndRounding() throws {
        let json = result.json()
        #expect(
            json
                == #"{"accuracy":1.235,"beacons":6,"confidence":0.712,"duration":10,"floor":2,"geofenceId":"hq-a","#
                + #""latitude":52.5200081,"longitude":13.404955,"method":"nonlinear+track","provider":"indoor","#
                + #""timestamp":1700000010.123,"venueId":"hq","x":12.346,"y":3}"#)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == Set(ScanResult.jsonKeys))
        #expect(
            ScanResult.jsonKeys == [
                "floor", "latitude", "longitude", "x", "y", "accuracy", "confidence", "timestamp", "provider",
                "geofenceId", "venueId", "method", "beacons", "duration",
            ])
    }

    @Test func unknownFloorAndCoordinatesAreNullNotMissing() throws {
        var plain = result
        plain.floor = nil
        plain.latitude = nil
        plain.longitude = nil
        let json = plain.json()
        #expect(json.contains(#""floor":null"#) && json.contains(#""latitude":null"#))
        let back = try ScanResult.decodeJSON(json)
        #expect(back.floor == nil && back.x == 12.346 && back.beacons == 6)
    }

    @Test func aBadResultNamesTheField() {
        do {
            _ = try ScanResult.decodeJSON(#"{"x":"a"}"#)
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".hasPrefix("scan.json: "))
        }
    }
}

@Suite("docs/SCAN.md example")
struct ScanDocumentationTests {
    @Test func theExampleIsWhatTheCodeWrites() throws {
        let document = RepositoryFiles.url("docs/SCAN.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        let marker = try #require(text.range(of: "<!-- example: scan.json -->\n```json\n"))
        let end = try #require(text.range(of: "\n```", range: marker.upperBound..<text.endIndex))
        let example = String(text[marker.upperBound..<end.lowerBound])
        #expect(try ScanResult.decodeJSON(example).json() == example)
    }
}
