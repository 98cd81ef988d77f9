import IndoorModel
import Testing

@testable import IndoorGeofencing

@Suite("Room hold")
struct RoomHoldTests {
    /// Rooms A (0…5 m) and B (5…10 m) side by side on floor 0, 5 m deep; nothing beyond x = 10 m.
    static let rooms = RoomMap(zones: [
        Zone(
            id: "A", name: "A",
            fences: [.polygon(Polygon.rectangle(from: Point2D(x: 0, y: 0), to: Point2D(x: 5, y: 5)), floor: 0)]),
        Zone(
            id: "B", name: "B",
            fences: [.polygon(Polygon.rectangle(from: Point2D(x: 5, y: 0), to: Point2D(x: 10, y: 5)), floor: 0)]),
    ])

    /// Margin 1 m, settle time 3 s, depth 1.5 m, unknown after 8 s.
    static let tuning = RoomHold.Configuration(margin: 1, settleTime: 3, depth: 1.5, unknownAfter: 8)

    /// The answers to fixes at these x (y = 2.5 m, floor 0), one per second from t = 0.
    static func answers(_ xs: [Double], configuration: RoomHold.Configuration = tuning) throws -> [RoomHold.Answer] {
        let rooms = try #require(Self.rooms)
        var hold = RoomHold(configuration: configuration)
        return xs.enumerated().map { second, x in
            hold.update(point: Point2D(x: x, y: 2.5), floor: 0, at: Double(second), in: rooms)
        }
    }

    /// Fixes of a device in A that stray across the wall (up to 1 m into B) never change the answer, where the raw
    /// room of each fix would flap four times.
    @Test func jitterAcrossAWallIsHeld() throws {
        let answers = try Self.answers([2, 4.5, 5.8, 4.6, 5.9, 3])
        #expect(answers == Array(repeating: .room(0), count: 6))
    }

    /// A real move into B: fixes just over the wall change the answer once B has held for 3 s (the settle time);
    /// a fix deep inside B (more than 1.5 m) changes it at once.
    @Test func aMoveSettlesThenChanges() throws {
        // At 6.2 m a fix is beyond the 1 m margin of A but only 1.2 m into B.
        let settling = try Self.answers([2, 6.2, 6.2, 6.2, 6.2, 6.2])
        #expect(settling == [.room(0), .room(0), .room(0), .room(0), .room(1), .room(1)])
        let deep = try Self.answers([2, 7.5, 7.5])
        #expect(deep == [.room(0), .room(1), .room(1)])
    }

    /// Fixes that leave A and do not settle (alternating between B and beyond every room) answer unknown once A has
    /// had no support for 8 s, and A again when a fix comes back.
    @Test func unsettledFixesAnswerUnknown() throws {
        let xs = [2.0] + (0..<10).map { $0 % 2 == 0 ? 6.2 : 12 } + [3]
        let answers = try Self.answers(
            xs, configuration: .init(margin: 1, settleTime: 3, depth: .infinity, unknownAfter: 8))
        #expect(Array(answers.prefix(8)) == Array(repeating: .room(0), count: 8))
        #expect(Array(answers[9...10]) == [.unknown, .unknown])
        #expect(answers.last == .room(0))
    }

    /// The first fix is held at once; a fix outside every room holds "no room", and its own margin does not apply.
    @Test func firstFixAndNoRoom() throws {
        #expect(
            try Self.answers([12, 12, 9.5, 9.5, 9.5, 9.5]) == [.noRoom, .noRoom, .noRoom, .noRoom, .noRoom, .room(1)])
    }

    /// The defaults: 0.25 m, 2 s, 0.5 m, 8 s; values out of range are clamped or replaced.
    @Test func defaults() {
        #expect(RoomHold.Configuration() == .init(margin: 0.25, settleTime: 2, depth: 0.5, unknownAfter: 8))
        #expect(RoomHold.Configuration(margin: -1, settleTime: .nan, depth: .nan) == .init(margin: 0, settleTime: 2))
    }

    /// Another floor's fences do not hold: a fix on floor 1 at the same place is in no room.
    @Test func floorsAreSeparate() throws {
        let rooms = try #require(Self.rooms)
        var hold = RoomHold()
        #expect(hold.update(point: Point2D(x: 2, y: 2.5), floor: 0, at: 0, in: rooms) == .room(0))
        #expect(rooms.signedDistance(from: Point2D(x: 2, y: 2.5), toRoom: 0, floor: 1) == .infinity)
        #expect(hold.update(point: Point2D(x: 2, y: 2.5), floor: 1, at: 1, in: rooms) == .room(0))
        #expect(hold.update(point: Point2D(x: 2, y: 2.5), floor: 1, at: 4, in: rooms) == .noRoom)
    }
}
