import Foundation
import IndoorGeofencing
import IndoorModel
import IndoorPositioning
import Testing

@testable import IndoorEvaluation

@Suite("Rooms")
struct RoomScoringTests {
    /// The simulated venue has one zone per room per floor, fenced by the room's rectangle on its floor, then the
    /// corridor; the zones survive venue.json, and every walker's truth row lies in one of its floor's zones.
    @Test func simulatedVenueHasOneZonePerRoomPerFloor() throws {
        var options = SimulatorOptions()
        options.floors = 2
        options.roomsPerSide = 3
        options.roomWidth = 4
        options.roomDepth = 6
        options.corridorWidth = 2
        options.devices = 2
        options.duration = 60
        options.beaconsPerFloor = 6
        let simulated = try Simulator(options: options).run()
        let venue = simulated.venue
        var expected: [(id: String, floor: Int, polygon: Polygon)] = []
        for level in 0..<2 {
            for k in 0..<6 {
                let x = Double(k % 3) * 4
                let (y0, y1) = k < 3 ? (0.0, 6.0) : (8.0, 14.0)
                expected.append(
                    (
                        "room-\(level)-\(k)", level,
                        Polygon.rectangle(from: Point2D(x: x, y: y0), to: Point2D(x: x + 4, y: y1))
                    ))
            }
            expected.append(
                ("corridor-\(level)", level, Polygon.rectangle(from: Point2D(x: 0, y: 6), to: Point2D(x: 12, y: 8))))
        }
        #expect(venue.zones.map(\.id) == expected.map(\.id))
        for (zone, want) in zip(venue.zones, expected) {
            #expect(zone.fences == [.polygon(want.polygon, floor: want.floor)])
            #expect(zone.beacons.isEmpty && zone.geolines.isEmpty)
        }
        // Through venue.json, validated as any venue is.
        let text = try #require(simulated.files().first { $0.path == "venue.json" }).contents
        #expect(try Venue.decodeJSON(Data(text.utf8)).zones == venue.zones)
        let rooms = try #require(RoomMap(zones: venue.zones))
        for row in simulated.dataset.test.truth {
            let room = try #require(rooms.room(at: row.point, floor: row.floor))
            #expect(venue.zones[room].fences.first?.floor == row.floor)
        }
    }

    /// Two rooms side by side, A (0…5 m) and B (5…10 m); nodes in each.
    static let zones = [
        Zone(
            id: "A", name: "A",
            fences: [.polygon(Polygon.rectangle(from: Point2D(x: 0, y: 0), to: Point2D(x: 5, y: 5)), floor: 0)]),
        Zone(
            id: "B", name: "B",
            fences: [.polygon(Polygon.rectangle(from: Point2D(x: 5, y: 0), to: Point2D(x: 10, y: 5)), floor: 0)]),
        // Not a room: only polygon fences count.
        Zone(id: "C", name: "C", fences: [.circle(center: Point2D(x: 20, y: 20), radius: 3)]),
    ]

    static let nodes = [
        Node(id: "a", position: Point3D(x: 2, y: 2, z: 0), floor: 0),
        Node(id: "b", position: Point3D(x: 8, y: 2, z: 0), floor: 0),
    ]

    /// Device `d` sits in A while its fix (the strongest node) alternates A, B, A, B: 2 of 4 rows in the wrong
    /// room, 3 fix changes, none of the truth. Device `e` starts outside every room (its fix in A), then is in B
    /// with its fix: its row outside is not scored for the wrong-room rate, but both its changes count.
    static let recording = Recording(
        sightings: [
            Sighting(time: 0, device: "d", node: "a", rssi: -40),
            Sighting(time: 0, device: "e", node: "a", rssi: -50),
            Sighting(time: 10, device: "d", node: "b", rssi: -40),
            Sighting(time: 10, device: "e", node: "b", rssi: -40),
            Sighting(time: 20, device: "d", node: "a", rssi: -40),
            Sighting(time: 30, device: "d", node: "b", rssi: -40),
        ],
        truth: [
            TruthPoint(time: 0, device: "d", point: Point2D(x: 1, y: 1), floor: 0),
            TruthPoint(time: 0, device: "e", point: Point2D(x: 20, y: 20), floor: 0),
            TruthPoint(time: 10, device: "d", point: Point2D(x: 1, y: 1), floor: 0),
            TruthPoint(time: 10, device: "e", point: Point2D(x: 6, y: 2), floor: 0),
            TruthPoint(time: 20, device: "d", point: Point2D(x: 1, y: 1), floor: 0),
            TruthPoint(time: 30, device: "d", point: Point2D(x: 1, y: 1), floor: 0),
        ])

    @Test func alternatingFixRoomsAreCounted() throws {
        let engine = PositioningEngine(nodes: Self.nodes, method: StrongestNode())
        let score = Evaluator.score(engine, on: Self.recording, zones: Self.zones)
        #expect(score.errors.count == 6)
        // Each stray fix lies more than 1.5 m inside the other room: the room hold follows it at once.
        #expect(
            score.rooms
                == RoomCounts(
                    rows: 5, wrongRows: 2, changes: 4, truthChanges: 1, heldWrongRows: 2, unknownRows: 0, heldChanges: 4
                ))
        // d tracked 30 s, e 10 s: 40 s in all.
        #expect(score.trackedSeconds == 40)
        #expect(score.wrongRoomRate == 0.4)
        #expect(score.roomChangesPerHour == 360)
        #expect(score.truthRoomChangesPerHour == 90)
        let line = ScoreReport.jsonLines([score])
        #expect(
            line.hasSuffix(
                #","wrong_room_rate":0.4,"room_changes_per_hour":360,"truth_room_changes_per_hour":90,"#
                    + #""truth_floor_flips_per_hour":0,"held_wrong_room_rate":0.4,"unknown_room_rate":0,"#
                    + #""held_room_changes_per_hour":360,"estimator":null,"validated_median_m":null}"# + "\n"))
        let table = ScoreReport.table([score]).split(separator: "\n")
        #expect(table[0].hasSuffix("in radius  wrong room  rooms/h  truth rooms/h  held wrong  unknown  held rooms/h"))
        #expect(table[1].hasSuffix("40.0%    360.0           90.0       40.0%     0.0%         360.0"))
    }

    /// The streamed evaluator, rows of all devices merged by time, counts the same.
    @Test func streamedScoringCountsTheSameRooms() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rooms-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("test"), withIntermediateDirectories: true)
        try Data(DatasetCSV.nodesText(Self.nodes).utf8).write(to: folder.appendingPathComponent("nodes.csv"))
        try Data(DatasetCSV.sightingsText(Self.recording.sightings).utf8).write(
            to: folder.appendingPathComponent("test/sightings.csv"))
        try Data(DatasetCSV.truthText(Self.recording.truth).utf8).write(
            to: folder.appendingPathComponent("test/truth.csv"))
        try Venue(id: "v", name: "v", zones: Self.zones).encodeJSON().write(
            to: folder.appendingPathComponent("venue.json"))
        var opened = try DatasetReader.open(folder: folder)
        #expect(opened.zones == Self.zones)
        let engine = PositioningEngine(nodes: Self.nodes, method: StrongestNode())
        let (scores, rows) = try Evaluator.score(
            [("strongest-node", engine)], sightings: &opened.sightings, truth: &opened.truth, zones: opened.zones)
        #expect(rows == 6)
        #expect(scores == [Evaluator.score(engine, on: Self.recording, zones: Self.zones)])
    }

    /// Without zones (or with no polygon fence), rooms are not scored: `nil`, `null` and no columns.
    @Test(arguments: [[], [Self.zones[2]]])
    func withoutRoomsTheFieldsAreAbsent(zones: [Zone]) {
        let engine = PositioningEngine(nodes: Self.nodes, method: StrongestNode())
        let score = Evaluator.score(engine, on: Self.recording, zones: zones)
        #expect(score.rooms == nil)
        #expect(score.wrongRoomRate == nil)
        #expect(score.roomChangesPerHour == nil)
        #expect(score.truthRoomChangesPerHour == nil)
        #expect(
            ScoreReport.jsonLines([score]).hasSuffix(
                #""wrong_room_rate":null,"room_changes_per_hour":null,"truth_room_changes_per_hour":null,"#
                    + #""truth_floor_flips_per_hour":0,"held_wrong_room_rate":null,"unknown_room_rate":null,"#
                    + #""held_room_changes_per_hour":null,"estimator":null,"validated_median_m":null}"# + "\n"))
        #expect(!ScoreReport.table([score]).contains("room"))
    }
}
