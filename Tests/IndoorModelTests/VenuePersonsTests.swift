import Foundation
import IndoorModel
import Testing

@Suite("Venue persons")
struct VenuePersonsTests {
    static func venue(_ persons: String) -> Data {
        Data(#"{"id": "home", "name": "Home", "persons": \#(persons)}"#.utf8)
    }

    @Test("persons are read, named by their id by default, written back, and map each device to its person")
    func roundTrip() throws {
        let venue = try Venue.decodeJSON(
            Self.venue(#"[{"id": "anna", "name": "Anna", "devices": ["p", "w"]}, {"id": "bo", "devices": ["t"]}]"#))
        #expect(venue.persons.map(\.name) == ["Anna", "bo"])
        #expect(venue.personOfDevice == ["p": "anna", "w": "anna", "t": "bo"])
        #expect(try Venue.decodeJSON(venue.encodeJSON()) == venue)
        // A venue without persons writes none.
        let bare = Venue(id: "x", name: "X")
        let json = try #require(String(data: try bare.encodeJSON(), encoding: .utf8))
        #expect(!json.contains("persons"))
    }

    @Test(
        "bad persons are refused naming the field",
        arguments: [
            (#"[{"id": "a"}, {"id": "a"}]"#, "persons[1].id", "already used"),
            (#"[{"id": "a", "devices": ["p"]}, {"id": "b", "devices": ["p"]}]"#, "persons[1].devices[0]", "belongs to"),
            (#"[{"id": "a", "devices": ["p", "p"]}]"#, "persons[0].devices[1]", "listed twice"),
            (#"[{"id": "a b"}]"#, "persons[0].id", "letters"),
            (#"[{"id": ""}]"#, "persons[0].id", "empty"),
            (#"[{"id": "a", "devices": [""]}]"#, "persons[0].devices[0]", "empty"),
        ])
    func refused(persons: String, field: String, words: String) {
        do {
            _ = try Venue.decodeJSON(Self.venue(persons))
            Issue.record("\(persons) was taken")
        } catch let error as FormatError {
            #expect(error.field == field, "\(error)")
            #expect(error.message.contains(words), "\(error)")
        } catch {
            Issue.record("\(error)")
        }
    }
}
