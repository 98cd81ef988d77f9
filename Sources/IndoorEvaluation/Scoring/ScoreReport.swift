/// Text forms of scores: the human table and the JSON Lines of `indoor evaluate`.
public enum ScoreReport {
    /// The keys of one JSON line, in the order they are written.
    public static let jsonKeys = [
        "method", "count", "misses", "mean_m", "median_m", "p90_m", "max_m", "floor_accuracy", "radius_coverage",
        "floor_flips_per_hour", "wrong_room_rate", "room_changes_per_hour", "truth_room_changes_per_hour",
        "truth_floor_flips_per_hour", "held_wrong_room_rate", "unknown_room_rate", "held_room_changes_per_hour",
        "estimator", "validated_median_m",
    ]

    /// One JSON object per method, one per line, with exactly the keys of ``jsonKeys``.
    ///
    /// Distances are metres rounded to the millimetre, `floor_accuracy` and `radius_coverage` (the share of located
    /// rows within the fix's accuracy radius) are fractions 0…1 rounded to 4 decimals, `floor_flips_per_hour` is
    /// floor changes per device-hour (2 decimals); with rooms (``MethodScore/rooms``), `wrong_room_rate` is a
    /// fraction 0…1 (4 decimals) and `room_changes_per_hour` and `truth_room_changes_per_hour` are the fix's and
    /// the truth's room changes per device-hour (2 decimals). `truth_floor_flips_per_hour` is the truth's floor
    /// changes over the same rows; `held_wrong_room_rate`, `unknown_room_rate` (fractions, 4 decimals) and
    /// `held_room_changes_per_hour` score the room a ``RoomHold`` of each device's fixes answers. `estimator` and
    /// `validated_median_m` say what the default chose on the survey and its median error on the survey's held-out
    /// walks (``MethodScore/estimator``, ``MethodScore/validatedMedian``). A statistic that does not exist (no located
    /// rows, no floors, no rooms, no choice) is `null`.
    public static func jsonLines(_ scores: [MethodScore]) -> String {
        var text = ""
        for score in scores {
            let summary = score.summary
            let fields = [
                "\"method\":" + jsonString(score.method),
                "\"count\":\(summary.count)",
                "\"misses\":\(summary.misses)",
                "\"mean_m\":" + jsonNumber(summary.meanMeters, decimals: 3),
                "\"median_m\":" + jsonNumber(summary.medianMeters, decimals: 3),
                "\"p90_m\":" + jsonNumber(summary.p90Meters, decimals: 3),
                "\"max_m\":" + jsonNumber(summary.maxMeters, decimals: 3),
                "\"floor_accuracy\":" + jsonNumber(summary.floorAccuracy, decimals: 4),
                "\"radius_coverage\":" + jsonNumber(score.radiusCoverage, decimals: 4),
                "\"floor_flips_per_hour\":"
                    + jsonNumber(summary.floorAccuracy == nil ? nil : score.floorFlipsPerHour, decimals: 2),
                "\"wrong_room_rate\":" + jsonNumber(score.wrongRoomRate, decimals: 4),
                "\"room_changes_per_hour\":" + jsonNumber(score.roomChangesPerHour, decimals: 2),
                "\"truth_room_changes_per_hour\":" + jsonNumber(score.truthRoomChangesPerHour, decimals: 2),
                "\"truth_floor_flips_per_hour\":"
                    + jsonNumber(summary.floorAccuracy == nil ? nil : score.truthFloorFlipsPerHour, decimals: 2),
                "\"held_wrong_room_rate\":" + jsonNumber(score.heldWrongRoomRate, decimals: 4),
                "\"unknown_room_rate\":" + jsonNumber(score.unknownRoomRate, decimals: 4),
                "\"held_room_changes_per_hour\":" + jsonNumber(score.heldRoomChangesPerHour, decimals: 2),
                "\"estimator\":" + (score.estimator.map(jsonString) ?? "null"),
                "\"validated_median_m\":" + jsonNumber(score.validatedMedian, decimals: 3),
            ]
            text += "{" + fields.joined(separator: ",") + "}\n"
        }
        return text
    }

    /// A fixed-width table: one row per method, errors in metres with two decimals, floor hit rate and the share
    /// of rows within the accuracy radius in percent, floor flips per device-hour where truth has floors; when any
    /// score has rooms, six more columns: the wrong-room rate in percent, the fix's and the truth's room changes per
    /// device-hour, and the ``RoomHold`` answer's wrong-room and unknown rates and changes per device-hour.
    public static func table(_ scores: [MethodScore]) -> String {
        let hasRooms = scores.contains { $0.rooms != nil }
        var header = [
            "method", "count", "misses", "mean m", "median m", "p90 m", "max m", "floor", "flips/h", "in radius",
        ]
        if hasRooms { header += ["wrong room", "rooms/h", "truth rooms/h", "held wrong", "unknown", "held rooms/h"] }
        var rows: [[String]] = [header]
        for score in scores {
            let summary = score.summary
            var row = [
                score.method, "\(summary.count)", "\(summary.misses)", fixed(summary.meanMeters, 2),
                fixed(summary.medianMeters, 2), fixed(summary.p90Meters, 2), fixed(summary.maxMeters, 2),
                summary.floorAccuracy.map { fixed($0 * 100, 1) + "%" } ?? "-",
                summary.floorAccuracy == nil ? "-" : fixed(score.floorFlipsPerHour, 1),
                score.radiusCoverage.map { fixed($0 * 100, 1) + "%" } ?? "-",
            ]
            if hasRooms {
                row += [
                    score.wrongRoomRate.map { fixed($0 * 100, 1) + "%" } ?? "-", fixed(score.roomChangesPerHour, 1),
                    fixed(score.truthRoomChangesPerHour, 1),
                    score.heldWrongRoomRate.map { fixed($0 * 100, 1) + "%" } ?? "-",
                    score.unknownRoomRate.map { fixed($0 * 100, 1) + "%" } ?? "-",
                    fixed(score.heldRoomChangesPerHour, 1),
                ]
            }
            rows.append(row)
        }
        var widths = Array(repeating: 0, count: header.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        var text = ""
        for row in rows {
            var line = ""
            for (index, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                if index == 0 {
                    line += cell + padding
                } else {
                    line += "  " + padding + cell
                }
            }
            text += line + "\n"
        }
        return text
    }

    /// `value` with exactly `decimals` decimals (0…6), or `-` when absent; beyond ±1e12 in exponent form
    /// (`1e+20`), which no real error reaches but a bad coordinate in a dataset can.
    public static func fixed(_ value: Double?, _ decimals: Int) -> String {
        guard let value, value.isFinite else { return "-" }
        let decimals = min(6, max(0, decimals))
        guard abs(value) < 1e12 else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int64(scaled / scale)
        var text = (value < 0 && scaled > 0 ? "-" : "") + "\(whole)"
        if decimals > 0 {
            let fraction = Int64(scaled) - whole * Int64(scale)
            let digits = "\(fraction)"
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return text
    }

    static func jsonNumber(_ value: Double?, decimals: Int) -> String {
        guard let value, value.isFinite else { return "null" }
        guard abs(value) < 1e12 else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return "\(Int64(rounded))" }
        return "\(rounded)"
    }

    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
