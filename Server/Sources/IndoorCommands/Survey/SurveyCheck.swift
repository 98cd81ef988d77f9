import Foundation
import IndoorModel

/// What `indoor survey check` finds wrong with a survey for a venue: truth rows outside every floor outline, devices
/// with truth that were never heard, clocks out of step (a device's sightings and truth that do not overlap in time),
/// sightings of nodes the venue does not have.
struct SurveyCheck {
    /// Each problem, in a sentence.
    var problems: [String] = []
    /// What the survey holds, in a sentence.
    var summary: String

    /// The report: the problems, or that there are none, after the summary.
    var lines: [String] {
        [summary] + (problems.isEmpty ? ["no problem found"] : problems)
    }

    /// The most examples a problem names.
    static let examples = 3

    init(survey: Recording, venue: Venue) {
        let truth = Dictionary(grouping: survey.truth, by: \.device)
        let sightings = Dictionary(grouping: survey.sightings, by: \.device)
        summary =
            "\(survey.truth.count) truth rows of \(truth.count) devices, \(survey.sightings.count) sightings of "
            + "\(sightings.count) devices, venue '\(venue.id)'"
        let outside = survey.truth.filter { !Self.isInside($0, venue: venue) }
        if !outside.isEmpty {
            let named = outside.prefix(Self.examples).map {
                "\($0.device) at t = \(DatasetCSV.number($0.time)) (\(DatasetCSV.number($0.point.x)), "
                    + "\(DatasetCSV.number($0.point.y)))"
            }
            problems.append(
                "\(outside.count) truth rows are outside every floor outline of the venue: "
                    + named.joined(separator: "; ") + (outside.count > Self.examples ? "; …" : ""))
        }
        for device in truth.keys.sorted() {
            guard let rows = truth[device], let first = rows.map(\.time).min(), let last = rows.map(\.time).max()
            else { continue }
            guard let heard = sightings[device], let start = heard.map(\.time).min(),
                let end = heard.map(\.time).max()
            else {
                problems.append(
                    "device '\(device)' has truth rows but was never heard: is its id the one its sightings name?")
                continue
            }
            if end < first || start > last {
                let offset = (start + end) / 2 - (first + last) / 2
                problems.append(
                    "the clocks of '\(device)' are out of step: its truth spans \(DatasetCSV.number(first))…"
                        + "\(DatasetCSV.number(last)) s, its sightings \(DatasetCSV.number(start))…"
                        + "\(DatasetCSV.number(end)) s (about \(DatasetCSV.number(offset.rounded())) s apart)")
            }
        }
        let known = Set(venue.nodes.map(\.id))
        let beacons = Set(venue.nodes.compactMap(\.beacon))
        let strangers = survey.sightings.filter { sighting in
            switch sighting.source {
            case .node(let id): !known.contains(id)
            case .beacon(let beacon): !beacons.contains(beacon)
            }
        }
        if !strangers.isEmpty {
            let names = Set(
                strangers.map { sighting -> String in
                    switch sighting.source {
                    case .node(let id): id
                    case .beacon(let beacon): beacon.description
                    }
                }
            ).sorted()
            problems.append(
                "\(strangers.count) sightings are of nodes the venue does not have: "
                    + names.prefix(Self.examples).joined(separator: ", ") + (names.count > Self.examples ? ", …" : ""))
        }
    }

    /// Whether `point` lies within its floor's outline (any floor's when it names none); a venue or floor without an
    /// outline takes every point.
    static func isInside(_ point: TruthPoint, venue: Venue) -> Bool {
        let floors = venue.floors.filter { point.floor == nil || $0.level == point.floor }
        guard !venue.floors.isEmpty else { return true }
        guard !floors.isEmpty else { return false }
        return floors.contains { $0.contains(point.point) }
    }
}
