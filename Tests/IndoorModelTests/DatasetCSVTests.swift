import Foundation
import Testing

@testable import IndoorModel

@Suite("Dataset CSV")
struct DatasetCSVTests {
    @Test func nodesRoundTrip() throws {
        let nodes = [
            Node(id: "b0-1", position: Point3D(x: 2.5, y: 0.05, z: 2.2), floor: 0),
            Node(id: "sensor11", position: Point3D(x: -7.18, y: 0.68, z: 0)),
        ]
        let text = DatasetCSV.nodesText(nodes)
        #expect(text == "id,x,y,z,floor\nb0-1,2.5,0.05,2.2,0\nsensor11,-7.18,0.68,0,\n")
        #expect(try DatasetCSV.parseNodes(text).get() == nodes)
    }

    @Test func sightingsRoundTrip() throws {
        let beacon = try BeaconID(parsing: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/42")
        let sightings = [
            Sighting(time: 1_581_248_844.015, device: "straight_05", node: "sensor10", rssi: -74),
            Sighting(time: 1_581_248_844.5, device: "phone", source: .beacon(beacon), rssi: -67.115),
        ]
        let text = DatasetCSV.sightingsText(sightings)
        #expect(
            text == """
                t,device,node,rssi
                1581248844.015,straight_05,sensor10,-74
                1581248844.5,phone,E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/42,-67.115

                """)
        #expect(try DatasetCSV.parseSightings(text).get() == sightings)
    }

    @Test func sightingsWithTxPowerRoundTrip() throws {
        let sightings = [
            Sighting(time: 1, device: "d", node: "n", rssi: -70, txPower: -59),
            Sighting(time: 2, device: "d", node: "n", rssi: -71),
        ]
        let text = DatasetCSV.sightingsText(sightings)
        #expect(text == "t,device,node,rssi,tx\n1,d,n,-70,-59\n2,d,n,-71,\n")
        #expect(try DatasetCSV.parseSightings(text).get() == sightings)
    }

    @Test func txColumnCanBeForced() {
        let sightings = [Sighting(time: 1, device: "d", node: "n", rssi: -70)]
        #expect(DatasetCSV.sightingsText(sightings) == "t,device,node,rssi\n1,d,n,-70\n")
        #expect(DatasetCSV.sightingsText(sightings, withTx: true) == "t,device,node,rssi,tx\n1,d,n,-70,\n")
        #expect(DatasetCSV.sightingsText([], withTx: true) == "t,device,node,rssi,tx\n")
    }

    @Test func truthRoundTrip() throws {
        let truth = [
            TruthPoint(time: 0, device: "walker-1", point: Point2D(x: 12.605, y: 11.509), z: 1.2, floor: 2),
            TruthPoint(time: 4719.687422878, device: "s1", point: Point2D(x: 30.11, y: 10.72)),
        ]
        let text = DatasetCSV.truthText(truth)
        #expect(text == "t,device,x,y,z,floor\n0,walker-1,12.605,11.509,1.2,2\n4719.687422878,s1,30.11,10.72,,\n")
        #expect(try DatasetCSV.parseTruth(text).get() == truth)
    }

    @Test func acceptsCRLFAndBlankLines() throws {
        let text = "t,device,node,rssi\r\n1,d,n,-70\r\n\r\n2,d,n,-71\r\n"
        let parsed = try DatasetCSV.parseSightings(text)
        #expect(parsed.problems.isEmpty)
        #expect(parsed.rows.map(\.rssi) == [-70, -71])
    }

    /// A sightings file whose line 17 has a bad RSSI: every other row is kept.
    @Test func byteOrderMarkIsNotPartOfTheHeader() throws {
        let parsed = try DatasetCSV.parseNodes("\u{FEFF}id,x,y,z,floor\r\nb1,1.5,2,,0\r\n")
        #expect(parsed.problems.isEmpty)
        #expect(parsed.rows == [Node(id: "b1", position: Point3D(x: 1.5, y: 2, z: 0), floor: 0)])
    }

    // Spaces after the commas (a hand-edited file) are read the same way in the header and in the rows.
    @Test func spacesAroundFieldsAreIgnored() throws {
        let parsed = try DatasetCSV.parseSightings("t, device, node, rssi\n1.5, phone, b1, -70\n2,phone,b1,\t-71 \n")
        #expect(parsed.problems.isEmpty)
        #expect(
            parsed.rows == [
                Sighting(time: 1.5, device: "phone", node: "b1", rssi: -70),
                Sighting(time: 2, device: "phone", node: "b1", rssi: -71),
            ])
    }

    // Damaged files (bytes overwritten with anything, lines cut short) never crash a reader: every line is
    // either a row or a problem that names its line.
    @Test func damagedBytesGiveRowsOrProblems() {
        let good = Array(
            "t,device,node,rssi,tx\n1.5,phone,b1,-70,-59\n2,phone,E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/2,-71,\n".utf8)
        for variant in 0..<300 {
            var bytes = good
            for step in 0..<1 + variant % 4 {
                bytes[(variant * 7 + step * 13) % bytes.count] = UInt8(truncatingIfNeeded: variant * 31 + step * 101)
            }
            let text = String(decoding: bytes.prefix(bytes.count - variant % 9), as: UTF8.self)
            let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
            check(try? DatasetCSV.parseSightings(text, file: "f.csv"), lines: lines)  // nil: a damaged header
            check(try? DatasetCSV.parseTruth(text, file: "f.csv"), lines: lines)
            check(try? DatasetCSV.parseNodes(text, file: "f.csv"), lines: lines)
        }
    }

    private func check<Row>(_ parsed: Parsed<Row>?, lines: Int) {
        guard let parsed else { return }
        #expect(parsed.rows.count + parsed.problems.count <= lines - 1)
        #expect(parsed.problems.allSatisfy { $0.file == "f.csv" && ($0.line ?? 0) >= 2 })
    }

    @Test func badRSSINamesFileLineAndField() throws {
        var lines = ["t,device,node,rssi"]
        for i in 1...20 { lines.append("\(i),phone,n1,\(i == 16 ? "abc" : "-70")") }
        let parsed = try DatasetCSV.parseSightings(lines.joined(separator: "\n") + "\n", file: "sightings.csv")
        #expect(parsed.rows.count == 19)
        #expect(parsed.problems.map(\.description) == ["sightings.csv:17: rssi 'abc' is not a number"])
        #expect(
            throws: FormatError(
                code: .invalidValue, file: "sightings.csv", line: 17, message: "rssi 'abc' is not a number")
        ) {
            try parsed.get()
        }
    }

    @Test(arguments: [
        ("t,device,node,rssi\n1,d,n,-70,5\n", "sightings.csv:2: expected 4 fields, found 5"),
        ("t,device,node,rssi\n1,d,n\n", "sightings.csv:2: expected 4 fields, found 3"),
        ("t,device,node,rssi\nnow,d,n,-70\n", "sightings.csv:2: t 'now' is not a number"),
        ("t,device,node,rssi\n1,,n,-70\n", "sightings.csv:2: device is empty"),
        ("t,device,node,rssi\n1,d,,-70\n", "sightings.csv:2: node is empty"),
        ("t,device,node,rssi\n1,d,n,\n", "sightings.csv:2: rssi is empty"),
        ("t,device,node,rssi\n1,d,n,nan\n", "sightings.csv:2: rssi 'nan' is not a number"),
        ("t,device,node,rssi,tx\n1,d,n,-70,loud\n", "sightings.csv:2: tx 'loud' is not a number"),
    ])
    func badSightingRows(text: String, message: String) throws {
        let parsed = try DatasetCSV.parseSightings(text, file: "sightings.csv")
        #expect(parsed.rows.isEmpty)
        #expect(parsed.problems.map(\.description) == [message])
    }

    @Test func missingColumnIsFatal() {
        #expect(
            throws: FormatError(
                code: .missingColumn, file: "sightings.csv", line: 1,
                message: "header has no 'rssi' column (expected t,device,node,rssi)")
        ) {
            try DatasetCSV.parseSightings("t,device,node,signal\n1,d,n,-70\n", file: "sightings.csv")
        }
        #expect(throws: FormatError.self) { try DatasetCSV.parseTruth("", file: "truth.csv") }
    }

    @Test(arguments: [
        ("id,x,y,z,floor\na,1,2,,\na,3,4,,\n", "nodes.csv:3: node id 'a' is used twice"),
        ("id,x,y,z,floor\na,1,north,,\n", "nodes.csv:2: y 'north' is not a number"),
        ("id,x,y,z,floor\na,1,2,,1.5\n", "nodes.csv:2: floor '1.5' is not an integer"),
    ])
    func badNodeRows(text: String, message: String) throws {
        let parsed = try DatasetCSV.parseNodes(text, file: "nodes.csv")
        #expect(parsed.problems.map(\.description) == [message])
    }

    @Test func truthWithBadFloor() throws {
        let parsed = try DatasetCSV.parseTruth("t,device,x,y,z,floor\n1,d,1,2,,one\n2,d,1,2,,\n", file: "truth.csv")
        #expect(parsed.rows.count == 1)
        #expect(parsed.problems.map(\.description) == ["truth.csv:2: floor 'one' is not an integer"])
    }

    @Test func numbersAreShortest() {
        #expect(DatasetCSV.number(12) == "12")
        #expect(DatasetCSV.number(-0.05) == "-0.05")
        #expect(DatasetCSV.number(1_628_001_583.7897) == "1628001583.7897")
    }
}
