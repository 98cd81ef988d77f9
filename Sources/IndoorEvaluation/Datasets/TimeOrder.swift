import IndoorModel

/// Checks that the sightings and the truth rows of a streamed recording each come in time order (equal times
/// allowed), as merging them by time needs.
struct TimeOrder {
    private var lastSighting = -Double.infinity
    private var lastTruth = -Double.infinity

    /// Takes the time, seconds, of the next sighting, at `line` of `file`.
    ///
    /// - Throws: ``FormatError`` with the code ``FormatError/Code/unsorted`` when it is earlier than the one before.
    mutating func check(sighting time: Double, file: String, line: Int) throws {
        try Self.check(time, after: &lastSighting, file: file, line: line)
    }

    /// Takes the time, seconds, of the next truth row, at `line` of `file`.
    ///
    /// - Throws: ``FormatError`` with the code ``FormatError/Code/unsorted`` when it is earlier than the one before.
    mutating func check(truth time: Double, file: String, line: Int) throws {
        try Self.check(time, after: &lastTruth, file: file, line: line)
    }

    private static func check(_ time: Double, after last: inout Double, file: String, line: Int) throws {
        guard time >= last else {
            throw FormatError(
                code: .unsorted, file: file, line: line,
                message:
                    "t \(DatasetCSV.number(time)) is earlier than the row before it (t \(DatasetCSV.number(last))): "
                    + "the rows are not sorted by time")
        }
        last = time
    }
}
