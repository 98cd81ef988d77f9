import Foundation
import IndoorModel
import Testing

@testable import IndoorCommands

/// `--venue` of `replay` and `scan`: a venue JSON file, or a dataset folder.
@Suite struct VenueInputTests {
    @Test func aDatasetFolderGivesItsVenueJSONOrAVenueOfItsNodes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("venue-input-\(UUID().uuidString)")
        let dataset = folder.appendingPathComponent("hall-b")
        try FileManager.default.createDirectory(at: dataset, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A folder with neither venue.json nor nodes.csv, then one with nodes.csv only (as the public datasets).
        do {
            _ = try VenueInput.json(dataset.path)
            Issue.record("expected a folder without venue.json or nodes.csv to be refused")
        } catch let error as FormatError {
            #expect(error.description.contains("a folder with neither venue.json nor nodes.csv"))
        }
        try Data("id,x,y,z,floor\na,0,0,2,\nb,12,0,2,\n".utf8).write(to: dataset.appendingPathComponent("nodes.csv"))
        let (data, file) = try VenueInput.json(dataset.path)
        #expect(file == dataset.appendingPathComponent("nodes.csv").path)
        let venue = try Venue.decodeJSON(data)
        #expect(venue.id == "hall-b" && venue.geofences == ["hall-b"])
        #expect(venue.nodes.map(\.id) == ["a", "b"] && venue.nodes.map(\.position.x) == [0, 12])
        // With a venue.json, that file as it is.
        let json = Data(#"{"id":"hq","nodes":[{"id":"a","x":1,"y":1}]}"#.utf8)
        try json.write(to: dataset.appendingPathComponent("venue.json"))
        let (fromFolder, named) = try VenueInput.json(dataset.path)
        #expect(fromFolder == json && named == dataset.appendingPathComponent("venue.json").path)
        // A file is read as given.
        #expect(try VenueInput.json(named).data == json)
    }
}
