import Foundation
import IndoorTestSupport
import Testing

@testable import IndoorModel

@Suite("IMDF import: occupants, amenities, unnamed units, grouped notes")
struct IMDFOccupantsAndNotesTests {
    /// The id of feature `n` of the test archive.
    static func uid(_ n: Int) -> String {
        "00000000-0000-4000-8000-" + String(repeating: "0", count: 10) + String(format: "%02d", n)
    }

    static func feature(_ type: String, id: String, properties: [String: Any]) -> [String: Any] {
        [
            "type": "Feature", "id": id, "feature_type": type, "properties": properties,
            "geometry": ["type": "Point", "coordinates": [0.0, 0.0]],
        ]
    }

    static func collection(_ features: [[String: Any]]) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features])
    }

    @Test("an occupant is kept in the data of the unit its anchor is in; one whose anchor names no unit is a note")
    func occupants() throws {
        var files = try IMDFFixtures.files("two-level")
        files["anchor.geojson"] = try Self.collection([
            Self.feature("anchor", id: "a1", properties: ["unit_id": Self.uid(12), "address_id": NSNull()]),
            Self.feature("anchor", id: "a2", properties: ["unit_id": NSNull(), "address_id": NSNull()]),
        ])
        files["occupant.geojson"] = try Self.collection([
            [
                "type": "Feature", "id": "o1", "feature_type": "occupant", "geometry": NSNull(),
                "properties": ["name": ["en": "Café Nero"], "category": "restaurant", "anchor_id": "a1"],
            ],
            [
                "type": "Feature", "id": "o2", "feature_type": "occupant", "geometry": NSNull(),
                "properties": ["name": ["en": "Bookshop"], "category": "shopping", "anchor_id": "a1"],
            ],
            [
                "type": "Feature", "id": "o3", "feature_type": "occupant", "geometry": NSNull(),
                "properties": ["name": ["en": "Nowhere Ltd"], "category": "office", "anchor_id": "a2"],
            ],
        ])
        let imported = try IMDFImporter.venue(from: files)
        let room = try #require(imported.venue.zones.first { $0.id == Self.uid(12) })
        #expect(room.data["occupants"] == "Café Nero; Bookshop")
        #expect(
            imported.report.notes.contains("occupant 'Nowhere Ltd' is in no unit (its anchor names none): not kept"))
        #expect(imported.report.unusedFeatures["occupant"] == nil && imported.report.unusedFeatures["anchor"] == nil)
        // Kept in the venue file: written and read back.
        let back = try Venue.decodeJSON(try imported.venue.encodeJSON())
        #expect(back.zones.first { $0.id == Self.uid(12) }?.data["occupants"] == "Café Nero; Bookshop")
        // And exported back to IMDF: occupants anchored in their unit, the amenity in the lobby.
        let exported = try IMDFExporter.files(of: imported.venue, created: Date(timeIntervalSince1970: 0))
        #expect(exported.files["occupant.geojson"] != nil && exported.files["anchor.geojson"] != nil)
        let again = try IMDFImporter.venue(from: exported.files)
        let zones = Dictionary(again.venue.zones.map { ($0.name, $0.data) }, uniquingKeysWith: { first, _ in first })
        #expect(zones["Room A"]?["occupants"] == "Café Nero; Bookshop")
        #expect(zones["Lobby"]?["amenities"] == "information")
    }

    @Test("unnamed units are named by their category and a number, never their id")
    func unnamedUnits() throws {
        var files = try IMDFFixtures.files("two-level")
        for index in 0..<8 {
            files = try IMDFTestArchive.editingFeature(files, "unit.geojson", index) { unit in
                guard var properties = unit["properties"] as? [String: Any] else { return }
                properties["name"] = NSNull()
                properties["alt_name"] = NSNull()
                unit["properties"] = properties
            }
        }
        let imported = try IMDFImporter.venue(from: files)
        let names = imported.venue.zones.filter { $0.data["imdf"] == "unit" }.map(\.name)
        #expect(
            names == [
                "Lobby 1", "Room 1", "Office 1", "Restroom 1", "Stairs 1", "Office 2", "Conferenceroom 1", "Stairs 2",
            ])
        #expect(!names.contains { $0.hasPrefix("00000000") })
        #expect(IMDFImporter.title(ofCategory: "restroom.female") == "Restroom female")
        #expect(imported.report.notes.contains { $0.hasPrefix("8 unit(s) without a name") })
    }

    @Test("notes alike are one line with their count and examples; a note seen once is as it was")
    func groupedNotes() {
        var notes = (0..<72).map {
            "opening 'door-\($0)' lies on no unit boundary of floor \($0 % 3): no gap was cut for it"
        }
        notes.insert("the venue has no display point: the anchor is the middle of the venue's outline", at: 1)
        notes.append("level 'L1': 2 hole(s) of its outline left out")
        let report = IMDFReport(notes: notes)
        #expect(
            report.groupedNotes == [
                "72 × opening '…' lies on no unit boundary of floor …: no gap was cut for it (for example 'door-0', "
                    + "'door-1', 'door-2')",
                "the venue has no display point: the anchor is the middle of the venue's outline",
                "level 'L1': 2 hole(s) of its outline left out",
            ])
    }
}
