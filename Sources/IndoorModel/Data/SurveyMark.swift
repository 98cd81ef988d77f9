import Foundation

/// "The device being surveyed is here": a point a surveyor marks on the plan while walking (at each turn or doorway),
/// or a spot where they stood still for ``hold`` seconds.
public struct SurveyMark: Hashable, Sendable, Codable {
    /// When the device was here, seconds on the sightings' clock.
    public var time: Double
    /// Where, metres in the venue's local frame.
    public var point: Point2D
    /// The floor's level, when the venue has floors.
    public var floor: Int?
    /// How long the device stood here from ``time``, seconds (0 for a point passed while walking).
    public var hold: Double

    /// A mark at `point` (metres) on `floor` at `time` seconds, held for `hold` seconds.
    public init(time: Double, point: Point2D, floor: Int? = nil, hold: Double = 0) {
        self.time = time
        self.point = point
        self.floor = floor
        self.hold = hold
    }

    /// The longest hold or walk between two marks that ``truth(device:marks:step:)`` fills with rows, seconds.
    public static let longestWalk = 3600.0

    /// The truth rows of `device` along `marks` (in time order), as a dataset's `truth.csv` has them: a row at each
    /// mark and at the end of its hold, and between one mark (or the end of its hold) and the next a row every `step`
    /// seconds at constant speed along the straight line, as surveys of walks are annotated. Between marks on
    /// different floors the device is taken to change floor at the midpoint of the gap.
    ///
    /// A mark whose time or hold is not finite gives no row. A hold, or a gap between marks, longer than
    /// ``longestWalk`` is not filled in (rows only at its ends): nobody walks one straight line for an hour, and the
    /// rows stay bounded whatever the marks say.
    ///
    /// - Complexity: O(duration / step) rows, at most ``longestWalk`` / `step` per mark; `step` is at least 0.1 s.
    public static func truth(device: String, marks: [SurveyMark], step: Double = 0.5) -> [TruthPoint] {
        let step = step.isFinite ? max(0.1, step) : 0.5
        let marks = marks.filter { $0.time.isFinite && $0.hold.isFinite }
        var rows: [TruthPoint] = []
        for (index, mark) in marks.enumerated() {
            rows.append(TruthPoint(time: mark.time, device: device, point: mark.point, floor: mark.floor))
            let leaving = mark.time + max(0, mark.hold)
            if mark.hold > 0, mark.hold > longestWalk {
                rows.append(TruthPoint(time: leaving, device: device, point: mark.point, floor: mark.floor))
            } else if mark.hold > 0 {
                var time = mark.time + step
                while time < leaving {
                    rows.append(TruthPoint(time: time, device: device, point: mark.point, floor: mark.floor))
                    time += step
                }
                rows.append(TruthPoint(time: leaving, device: device, point: mark.point, floor: mark.floor))
            }
            guard index + 1 < marks.count else { continue }
            let next = marks[index + 1]
            let span = next.time - leaving
            guard span > 0, span <= longestWalk else { continue }
            var time = leaving + step
            while time < next.time - step / 2 {
                let fraction = (time - leaving) / span
                rows.append(
                    TruthPoint(
                        time: time, device: device, point: mark.point.interpolated(to: next.point, fraction: fraction),
                        floor: fraction < 0.5 ? mark.floor : next.floor))
                time += step
            }
        }
        return rows
    }
}
