import Foundation
import IndoorModel
import IndoorPositioning

/// The CSV of every scored truth row of every method (`indoor evaluate --rows`): where each error happened, for
/// plotting or for finding the stretches a method gets wrong.
///
/// Columns: `method`, `device`, `t` (the row's time, s), `truth_x`, `truth_y` (m), `truth_floor`, `x`, `y` (the
/// fix, m), `floor` (the fix's), `error_m` (the horizontal error, m), `accuracy_m` (the fix's accuracy radius, m),
/// `within_radius` (1 when the error is within the radius, else 0), `no_fix` (for a row without a position: the
/// ``NoFix/Code`` name, or `nonFinite` for a fix at a non-finite place; empty otherwise). Positions and distances are
/// rounded to the millimetre; an absent value is an empty field. A row counts as the scores count it, by the same
/// functions (a miss when `no_fix` is set; see ``MethodTally``).
public enum RowReport {
    /// The header line, with its newline.
    public static let header =
        "method,device,t,truth_x,truth_y,truth_floor,x,y,floor,error_m,accuracy_m,within_radius,no_fix\n"

    /// The line (with its newline) of `method`'s answer `result` to the truth row `row`.
    public static func line(method: String, row: TruthPoint, result: Result<Fix, NoFix>) -> String {
        var text = "\(method),\(row.device),\(DatasetCSV.number(row.time)),"
        text += "\(millimetres(row.point.x)),\(millimetres(row.point.y)),\(row.floor.map(String.init) ?? ""),"
        switch result {
        case .failure(let noFix):
            text += ",,,,,,\(noFix.code.name)\n"
        case .success(let fix):
            let error = MethodTally.error(of: fix, for: row)
            text += "\(millimetres(fix.position.x)),\(millimetres(fix.position.y)),"
            text += "\(fix.floor.map(String.init) ?? ""),"
            if error.isFinite {
                text +=
                    "\(millimetres(error)),\(millimetres(fix.accuracy)),\(MethodTally.isCovered(fix, error: error) ? 1 : 0),\n"
            } else {
                text += ",\(millimetres(fix.accuracy)),,nonFinite\n"
            }
        }
        return text
    }

    /// `value` rounded to three decimals (`1.5` as `1.500`); empty when not finite.
    static func millimetres(_ value: Double) -> String {
        value.isFinite ? String(format: "%.3f", value) : ""
    }
}
