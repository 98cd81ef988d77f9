import Foundation
import Testing

@_spi(IndoorPackages) @testable import IndoorModel

@Suite("JSON syntax errors name a line and column")
struct JSONSyntaxErrorTests {
    @Test(
        "malformed venue JSON: the file, line and column of the first error, and what was expected",
        arguments: [
            ("{\"id\": ", "venue.json: line 1, column 8: unexpected end of input; expected a value"),
            (
                "{\"id\": \"v\",\n \"nodes\": [\n  {\"id\": \"n1\", \"x\": 1,, \"y\": 2}]}",
                "venue.json: line 3, column 23: expected a string key after ',', found ','"
            ),
            (
                "{\"id\": \"v\",\n \"nodes\": [{\"id\": \"n1\" \"x\": 1}]}",
                "venue.json: line 2, column 24: expected ',' or '}' after an object member, found '\"'"
            ),
            (
                "{\"id\": \"v\", \"name\": tru}",
                "venue.json: line 1, column 21: expected a value, found 't' (not 'true')"
            ),
            ("{\"id\": \"v\"} x", "venue.json: line 1, column 13: unexpected 'x' after the end of the JSON value"),
            (
                "{\"id\": \"v\nw\"}",
                "venue.json: line 1, column 10: a line ends inside a string (is its closing '\"' missing?)"
            ),
            (
                "{\"id\": \"\\q\"}",
                "venue.json: line 1, column 10: expected an escape (one of \" \\ / b f n r t u), found 'q'"
            ),
            ("\u{0}\u{0}\u{0}", "venue.json: line 1, column 1: expected a value, found byte 0x00"),
            ("{\"name\": \"Café\", 5}", "venue.json: line 1, column 18: expected a string key after ',', found '5'"),
        ])
    func malformedVenue(json: String, message: String) throws {
        let error = try #require(throws: FormatError.self) { try Venue.decodeJSON(Data(json.utf8)) }
        #expect(error.description == message)
        #expect(error.code == .invalidJSON)
    }

    @Test("a well-formed document with a wrong value keeps the path of the value")
    func wrongValueKeepsPath() throws {
        let error = try #require(throws: FormatError.self) {
            try Venue.decodeJSON(Data(#"{"id":"v","nodes":[{"id":"n1","x":"east","y":0}]}"#.utf8))
        }
        #expect(error.description == "venue.json: nodes[0].x: expected a number")
    }

    @Test("one line of JSON Lines: the file's line, then the column")
    func jsonLinesColumn() {
        let parsed = SightingsJSONLines.parse(
            "{\"t\":1,\"device\":\"d\",\"node\":\"n\",\"rssi\":-70}\n{\"t\":2,\"device\":\"d\" \"node\":\"n\"}\n",
            file: "live.jsonl")
        #expect(parsed.rows.count == 1)
        #expect(
            parsed.problems.map(\.description) == [
                "live.jsonl:2: column 21: expected ',' or '}' after an object member, found '\"'"
            ])
    }

    @Test("valid documents have no syntax error; positions count lines and Unicode scalars")
    func scanner() throws {
        for valid in ["{}", "[]", " [1, -2.5e3, true, false, null, \"a\\u00e9\\n\", {\"k\": []}] ", "\u{FEFF}0"] {
            #expect(JSONSyntaxError.find(in: Data(valid.utf8)) == nil, "\(valid)")
        }
        let error = try #require(JSONSyntaxError.find(in: Data("[\"é\",\n \"ü\" 1]".utf8)))
        #expect(error.line == 2)
        #expect(error.column == 6)
        #expect(error.problem == "expected ',' or ']' after an array element, found '1'")
        #expect(JSONSyntaxError.find(in: Data("  ".utf8))?.problem == "the document is empty; expected a JSON value")
        // Foundation's decoder accepts these two; the scanner, strict to RFC 8259, does not.
        #expect(
            JSONSyntaxError.find(in: Data("[1,]".utf8))?.positionedMessage
                == "line 1, column 4: expected a value, found ']'")
        #expect(
            JSONSyntaxError.find(in: Data("[01]".utf8))?.positionedMessage
                == "line 1, column 2: a number with a leading zero")
    }
}
