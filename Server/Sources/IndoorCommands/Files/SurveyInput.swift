import Foundation
import IndoorEvaluation
import IndoorModel

/// A site survey given to a command (`--survey DIR`): read whole and checked against the venue it is for.
enum SurveyInput {
    /// The survey at `path` (a folder with `sightings.csv` and `truth.csv`, or a dataset folder with `train/`), for
    /// `venue`.
    ///
    /// - Throws: ``IndoorModel/FormatError`` naming the file, line and field of a bad row, or when the survey has no
    ///   truth or none of its sightings is of a node of `venue` (ids as in the venue's `nodes`, or their beacons).
    static func read(_ path: String, venue: Venue) throws -> Recording {
        let survey = try DatasetReader.survey(folder: URL(fileURLWithPath: path))
        guard !survey.truth.isEmpty else {
            throw FormatError(code: .invalidValue, file: path, message: "the survey has no truth rows")
        }
        guard survey.hearsAny(of: venue.nodes) else {
            let ids = Set(venue.nodes.map(\.id))
            throw FormatError(
                code: .invalidValue, file: path,
                message: "none of the survey's \(survey.sightings.count) sightings is of a node of venue "
                    + "'\(venue.id)' (\(ids.sorted().prefix(5).joined(separator: ", "))\(ids.count > 5 ? ", …" : ""))")
        }
        return survey
    }
}
