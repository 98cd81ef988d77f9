import Foundation
import IndoorModel
import IndoorPositioning
import IndoorTestSupport
import Testing

@testable import IndoorEvaluation

@Suite("evaluate --rows lines")
struct RowReportTests {
    let row = TruthPoint(time: 12.5, device: "walker-1", point: Point2D(x: 3, y: 4), floor: 1)

    @Test func aFixGivesItsPlaceErrorRadiusAndWhetherTheRadiusHoldsTheTruth() {
        let fix = Fix(
            time: 12.5, device: "walker-1", position: Point3D(x: 0, y: 0, z: 1.2), floor: 2, accuracy: 4.9996,
            confidence: 0.5, method: "auto")
        #expect(
            RowReport.line(method: "auto", row: row, result: .success(fix))
                == "auto,walker-1,12.5,3.000,4.000,1,0.000,0.000,2,5.000,5.000,0,\n")
        var wider = fix
        wider.accuracy = 5
        #expect(RowReport.line(method: "auto", row: row, result: .success(wider)).hasSuffix(",5.000,5.000,1,\n"))
    }

    @Test func aMissGivesWhyAndNoPlace() {
        let miss = NoFix(.tooFewNodes, "2 nodes heard; nonlinear needs 3")
        #expect(
            RowReport.line(method: "nonlinear", row: row, result: .failure(miss))
                == "nonlinear,walker-1,12.5,3.000,4.000,1,,,,,,,tooFewNodes\n")
        let header = RowReport.header.split(separator: ",")
        #expect(header.count == 13)
    }

    @Test func aFixAtANonFiniteErrorIsAMissAsTheScoresCountIt() {
        let fix = Fix(
            time: 1, device: "walker-1", position: Point3D(x: .infinity, y: 0, z: 0), floor: nil, accuracy: 2,
            confidence: 0.5, method: "auto")
        #expect(
            RowReport.line(method: "auto", row: row, result: .success(fix))
                == "auto,walker-1,12.5,3.000,4.000,1,,0.000,,,2.000,,nonFinite\n")
        var tally = MethodTally(method: "auto")
        tally.record(.success(fix), for: row)
        #expect(tally.score.misses == 1)
    }
}

@Suite("docs/FORMATS.md: the --rows example")
struct RowReportDocumentationTests {
    @Test func theExampleHasTheHeaderAndColumnsOfTheCode() throws {
        let document = RepositoryFiles.url("docs/FORMATS.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        let marker = try #require(text.range(of: "<!-- example: evaluate-rows.csv -->\n```csv\n"))
        let end = try #require(text.range(of: "\n```", range: marker.upperBound..<text.endIndex))
        let lines = text[marker.upperBound..<end.lowerBound].split(separator: "\n")
        #expect(lines.first.map { $0 + "\n" } == RowReport.header)
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            #expect(fields.count == 13)
            let values = [3, 4, 6, 7, 9].compactMap { Double(fields[$0]) }
            #expect(values.count == 5)
            #expect(abs(hypot(values[2] - values[0], values[3] - values[1]) - values[4]) < 0.002)
        }
    }
}
