import Foundation
import IndoorModel
import Testing

@testable import IndoorPositioning

@Suite struct CramerRaoBoundTests {
    @Test func fourSymmetricNodesGiveTheClosedForm() throws {
        // Nodes at distance r around the device in its plane: J = 2b²/r² on each axis, so RMS = r / b.
        let r = 5.0
        let sigma = 4.0
        let exponent = 2.0
        let nodes = [
            Point3D(x: r, y: 0, z: 0), Point3D(x: -r, y: 0, z: 0), Point3D(x: 0, y: r, z: 0),
            Point3D(x: 0, y: -r, z: 0),
        ]
        let bound = try #require(
            CramerRaoBound(device: Point3D(x: 0, y: 0, z: 0), nodes: nodes, sigma: sigma, exponent: exponent))
        let b = 10 * exponent / (sigma * log(10))
        #expect(abs(bound.rms - r / b) < 1e-9)
        #expect(abs(bound.xy) < 1e-12)
        #expect(abs(bound.xx - bound.yy) < 1e-12)
    }

    @Test func theBoundGrowsWithNoiseAndIsUndefinedOnALine() throws {
        let nodes = [Point3D(x: 0, y: 0, z: 2), Point3D(x: 8, y: 0, z: 2), Point3D(x: 0, y: 6, z: 2)]
        let device = Point3D(x: 3, y: 2, z: 1)
        let low = try #require(CramerRaoBound(device: device, nodes: nodes, sigma: 2, exponent: 2))
        let high = try #require(CramerRaoBound(device: device, nodes: nodes, sigma: 4, exponent: 2))
        #expect(abs(high.rms - 2 * low.rms) < 1e-9)
        let line = [Point3D(x: 0, y: 0, z: 0), Point3D(x: 5, y: 0, z: 0)]
        #expect(CramerRaoBound(device: Point3D(x: 2, y: 0, z: 0), nodes: line, sigma: 4, exponent: 2) == nil)
        #expect(CramerRaoBound(device: device, nodes: nodes, sigma: 0, exponent: 2) == nil)
    }
}
