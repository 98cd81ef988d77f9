import Foundation

/// The result of importing an IMDF archive: the venue, and what of the archive it does not hold.
public struct IMDFImport: Hashable, Sendable {
    /// The venue: floors from levels, zones from units and geofences, walls from unit boundaries, the anchor from the
    /// venue's display point; metres in its local frame.
    public var venue: Venue
    /// What was not used, and the choices made.
    public var report: IMDFReport

    /// An import of `venue` with `report`.
    public init(venue: Venue, report: IMDFReport) {
        self.venue = venue
        self.report = report
    }
}
