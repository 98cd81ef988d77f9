import Foundation
import IndoorEvaluation
import IndoorModel
import IndoorPositioning

/// The `--rows` CSV of `indoor evaluate` (``RowReport``), written while the methods are scored: about 1 MiB at a time
/// into a temporary file beside the target, renamed into place by ``commit()``. Memory stays bounded however many rows
/// are scored.
///
/// A write that fails (a full disk) stops the writing but not the scoring: ``commit()`` throws it, once the scores
/// have been printed.
final class RowsFile {
    private let target: OutputFile
    private var writer: OutputFile.Writer
    private var buffer = RowReport.header
    private var failure: (any Error)?

    /// The path as the user gave it.
    var path: String { target.path }

    /// Opens a temporary file for `target` (checked already: see ``OutputFile/init(path:force:inputs:)``).
    ///
    /// - Throws: ``CommandFailure`` when the temporary file cannot be created.
    init(_ target: OutputFile) throws {
        self.target = target
        writer = try target.open()
    }

    /// Adds `method`'s answer `result` to the truth row `row`.
    func add(method: String, row: TruthPoint, result: Result<Fix, NoFix>) {
        guard failure == nil else { return }
        buffer += RowReport.line(method: method, row: row, result: result)
        if buffer.utf8.count >= 1 << 20 { flush() }
    }

    /// Drops every row added so far (the scoring starts again another way), keeping the header.
    ///
    /// - Throws: ``CommandFailure`` when a new temporary file cannot be created.
    func restart() throws {
        writer.discard()
        writer = try target.open()
        buffer = RowReport.header
        failure = nil
    }

    /// Writes what is buffered and renames the file into place.
    ///
    /// - Throws: The first failed write, or ``CommandFailure`` naming the path; the temporary file is removed and an
    ///   old file at the path is left as it was.
    func commit() throws {
        flush()
        if let failure {
            writer.discard()
            throw failure
        }
        try writer.commit()
    }

    private func flush() {
        guard failure == nil, !buffer.isEmpty else { return }
        do {
            try writer.write(Data(buffer.utf8))
        } catch {
            failure = error
        }
        buffer = ""
    }
}
