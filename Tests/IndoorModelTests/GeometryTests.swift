import Foundation
import Testing

@testable import IndoorModel

@Suite("Geometry")
struct GeometryTests {
    let square = Polygon.rectangle(from: Point2D(x: 0, y: 0), to: Point2D(x: 4, y: 3))
    // An L shape: a 4 x 4 square without its top-right 2 x 2 quarter.
    let lShape = Polygon([
        Point2D(x: 0, y: 0), Point2D(x: 4, y: 0), Point2D(x: 4, y: 2), Point2D(x: 2, y: 2), Point2D(x: 2, y: 4),
        Point2D(x: 0, y: 4),
    ])

    @Test func areas() {
        #expect(square.area == 12)
        #expect(lShape.area == 12)
        #expect(Polygon(square.vertices.reversed()).area == 12)
        #expect(Polygon([Point2D(x: 0, y: 0), Point2D(x: 1, y: 1)]).area == 0)
    }

    @Test(arguments: [
        (Point2D(x: 1, y: 1), true), (Point2D(x: 3, y: 1), true), (Point2D(x: 1, y: 3), true),
        (Point2D(x: 3, y: 3), false), (Point2D(x: -0.1, y: 1), false), (Point2D(x: 5, y: 1), false),
        (Point2D(x: 2, y: 3), true),  // on an inner edge
        (Point2D(x: 0, y: 0), true),  // a corner
    ])
    func lShapeContains(point: Point2D, inside: Bool) {
        #expect(lShape.contains(point) == inside)
    }

    @Test func segmentsIntersect() {
        let a = Segment(from: Point2D(x: 0, y: 0), to: Point2D(x: 4, y: 4))
        #expect(a.intersects(Segment(from: Point2D(x: 0, y: 4), to: Point2D(x: 4, y: 0))))
        #expect(!a.intersects(Segment(from: Point2D(x: 0, y: 1), to: Point2D(x: 3, y: 4))))  // parallel
        #expect(a.intersects(Segment(from: Point2D(x: 4, y: 4), to: Point2D(x: 6, y: 0))))  // touching end
        #expect(a.intersects(Segment(from: Point2D(x: 2, y: 2), to: Point2D(x: 6, y: 6))))  // collinear overlap
        #expect(!a.intersects(Segment(from: Point2D(x: 5, y: 5), to: Point2D(x: 6, y: 6))))  // collinear apart
        #expect(!a.intersects(Segment(from: Point2D(x: 3, y: 0), to: Point2D(x: 5, y: 1))))
    }

    @Test func distances() {
        let wall = Segment(from: Point2D(x: 0, y: 0), to: Point2D(x: 10, y: 0))
        #expect(wall.length == 10)
        #expect(wall.distance(to: Point2D(x: 5, y: 3)) == 3)
        #expect(wall.distance(to: Point2D(x: 13, y: 4)) == 5)
        #expect(square.distanceToBoundary(from: Point2D(x: 1, y: 1.5)) == 1)
        #expect(Point3D(x: 1, y: 2, z: 2).distance(to: Point3D(x: 0, y: 0, z: 0)) == 3)
        #expect(Point2D(x: 1, y: 1).isApproximatelyEqual(to: Point2D(x: 1.004, y: 0.996), absoluteTolerance: 0.005))
    }

    @Test func pointsAndPolygonsAreJSONArrays() throws {
        let json = try JSONFormat.encoder().encode(lShape)
        #expect(String(decoding: json, as: UTF8.self) == "[[0,0],[4,0],[4,2],[2,2],[2,4],[0,4]]")
        #expect(try JSONDecoder().decode(Polygon.self, from: json) == lShape)
        #expect(throws: FormatError.self) {
            try JSONFormat.decode(Point2D.self, from: Data("[1,2,3]".utf8), file: "p.json")
        }
    }
}
