import Foundation
import IndoorModel
import IndoorPositioning
import Testing

@testable import IndoorEvaluation

@Suite("Dataset reading and evaluation")
struct DatasetEvaluationTests {
    @Test func readsASharedDatasetAndScoresASlice() throws {
        var dataset = try DatasetReader.read(folder: try SharedDatasets.folder("kolakowski-flat"))
        #expect(dataset.nodes.count == 6)
        #expect(dataset.train != nil)
        #expect(!dataset.hasFloors)
        dataset.test.truth = Array(dataset.test.truth.prefix(150))
        // Without the survey, to keep the test fast (the CLI test scores with it).
        dataset.train = nil
        let scores = try MethodComparison.run(dataset: dataset, methods: [MethodCatalog.defaultName])
        let summary = try #require(scores.first).summary
        #expect(summary.count == 150)
        // The default without a survey (its path-loss posterior held near the centroid of the strongest nodes, narrowed
        // across a row of them, weighed on a 1 m lattice: `PosteriorLattice`, `CentroidPrior`; RSSI read through
        // `AutoMethod.readingFilterWithoutSurvey`) on the first 150 rows, exactly: it is deterministic.
        #expect(summary.misses == 0)
        #expect(abs((summary.meanMeters ?? .nan) - 2.3115133235992493) < 1e-9)
        #expect(abs((summary.medianMeters ?? .nan) - 2.2284989488357203) < 1e-9)
        #expect(abs((summary.p90Meters ?? .nan) - 3.3002915380333153) < 1e-9)
        #expect(abs((summary.maxMeters ?? .nan) - 4.536687314229002) < 1e-9)
        #expect(summary.floorAccuracy == nil)
    }

    @Test func surveyCanBeLeftUnread() throws {
        let folder = try SharedDatasets.folder("kolakowski-flat")
        #expect(try DatasetReader.read(folder: folder).train != nil)
        let dataset = try DatasetReader.read(folder: folder, includeSurvey: false)
        #expect(dataset.train == nil)
        #expect(dataset.nodes.count == 6)
    }

    @Test func missingFolderAndFilesNameThePath() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/dataset")
        #expect(
            throws: FormatError(code: .missingFile, message: "dataset folder '/nonexistent/dataset' does not exist")
        ) {
            try DatasetReader.read(folder: missing)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("indoor-reader-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("test"), withIntermediateDirectories: true)
        try Data("id,x,y,z,floor\na,0,0,,\n".utf8).write(to: folder.appendingPathComponent("nodes.csv"))
        try Data("t,device,node,rssi\n1,d,a,-70\n".utf8).write(to: folder.appendingPathComponent("test/sightings.csv"))
        let expected = folder.appendingPathComponent("test/truth.csv").path
        #expect(throws: FormatError(code: .missingFile, message: "missing file '\(expected)'")) {
            try DatasetReader.read(folder: folder)
        }
        // A bad row names the file relative to the dataset, the line and the field.
        try Data("t,device,x,y,z,floor\n1,d,0,0,,\n2,d,zero,0,,\n".utf8).write(
            to: folder.appendingPathComponent("test/truth.csv"))
        #expect(
            throws: FormatError(
                code: .invalidValue, file: "test/truth.csv", line: 3, message: "x 'zero' is not a number")
        ) {
            try DatasetReader.read(folder: folder)
        }
        // Only the first bad row is spelled out; the message says how many more there are.
        try Data("t,device,x,y,z,floor\n1,d,0,0,,\n2,d,zero,0,,\n3,d,0\n4,d,0,one,,\n".utf8)
            .write(to: folder.appendingPathComponent("test/truth.csv"))
        #expect(
            throws: FormatError(
                code: .invalidValue, file: "test/truth.csv", line: 3,
                message: "x 'zero' is not a number (and 2 more bad rows in this file)")
        ) { try DatasetReader.read(folder: folder) }
        // A file where the folder should be.
        let file = folder.appendingPathComponent("nodes.csv")
        #expect(
            throws: FormatError(
                code: .missingFile,
                message: "'\(file.path)' is a file, not a dataset folder (nodes.csv, test/, optional train/)")
        ) { try DatasetReader.read(folder: file) }
    }
}
