import Foundation
import IndoorModel
import IndoorSession
import Logging

/// Learning each venue's site survey in the background (``LearningQueue``: one venue at a time, on a thread of its
/// own), and handing what is learned to the venue's session and its scans.
///
/// A venue is served from the moment it is put, without its survey; its session takes over the learned positioning
/// when it is ready (`LocationSession.adoptPositioning(of:replaying:)`: zone visits and rooms carry on), its scans too
/// (``ScanSessions``). How far each venue is, is in its runtime's state (``SurveyState``).
final class SurveyLearning: Sendable {
    /// Site surveys by venue id, given at the server's start.
    let surveys: [String: Recording]
    private let queue = LearningQueue()
    private let registry: VenueRegistry
    private let scans: ScanSessions
    private let metrics: ServerMetrics
    private let logger: Logger

    /// Learning of `surveys` for the venues of `registry`, handing learned scan sessions to `scans`; the end of each
    /// venue's learning is told to `logger`, the venues learning counted in `metrics`.
    init(
        surveys: [String: Recording], registry: VenueRegistry, scans: ScanSessions, metrics: ServerMetrics,
        logger: Logger = Logger(label: "indoor.hub", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.surveys = surveys
        self.registry = registry
        self.scans = scans
        self.metrics = metrics
        self.logger = logger
    }

    /// Whether venue `id` has a survey to learn: its runtime keeps the recent sightings until it is learned.
    func hasSurvey(venue id: String) -> Bool { surveys[id] != nil }

    /// Whether venue `id`'s survey is learned: ``SurveyState/none`` as well for a venue that does not run here.
    func state(venue id: String) -> SurveyState {
        guard let runtime = registry.runtime(id) else { return .none }
        return runtime.locked { $0.survey }
    }

    /// Returns once `venue`'s survey is learned (or its learning failed), and at once for a venue without one.
    func finished(venue id: String) async {
        await queue.finished(id)
    }

    /// For a venue with a survey, learns it in the background (after any other venue's learning): the venue's
    /// session takes over the learned positioning, then its scans' session is made with the survey. Skipped when
    /// the runtime has been replaced or deleted by then.
    func learn(_ runtime: VenueRuntime) {
        let venue = runtime.venue
        guard let survey = surveys[venue.id] else { return }
        queue.schedule(key: venue.id) { [self] in
            guard registry.isCurrent(runtime) else { return }
            let start = ContinuousClock.now
            var adopted = false
            do {
                let learned = try LocationSession(SessionConfiguration(venue: venue, survey: survey))
                try runtime.locked { state in
                    try state.session.adoptPositioning(of: learned, replaying: state.recent?.sightings ?? [])
                    state.recent = nil
                }
                adopted = true
                guard registry.isCurrent(runtime) else { return }
                let options = IndoorScan.Options(surveys: [venue.id: survey])
                let session = try IndoorScan.session(venue: venue, options: options)
                if registry.isCurrent(runtime) { scans.adopt(learned: session, venue: venue) }
                runtime.locked { $0.survey = .learned }
                record()
                let seconds = (ContinuousClock.now - start) / .milliseconds(1) / 1000
                let what = "\(survey.truth.count) truth rows, \(survey.sightings.count) sightings"
                let message =
                    "venue '\(venue.id)' learned its survey (\(what)) in \(String(format: "%.1f", seconds)) s: its "
                    + "fixes and scans now come from the radio map"
                logger.info(Logger.Message(stringLiteral: message))
            } catch {
                runtime.locked { state in
                    state.recent = nil
                    state.survey = .failed
                }
                record()
                let what = adopted ? "its fixes come from its survey, its scans run without it" : "it runs without it"
                logger.error(
                    "venue '\(venue.id)' could not learn its survey; \(what)", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Sets `indoor_venues_learning`: the venues served whose survey is being learned.
    func record() {
        let count = registry.all.reduce(0) { $0 + ($1.locked { $0.survey == .learning } ? 1 : 0) }
        metrics.venuesLearning.record(count)
    }

    /// Why venue `venue`'s survey cannot serve it (it hears none of its nodes), or `nil` (also for no survey).
    func problem(with venue: Venue) -> String? {
        Self.problem(venue, surveys[venue.id])
    }

    /// Why `survey` cannot serve `venue` (it hears none of its nodes), or `nil`.
    static func problem(_ venue: Venue, _ survey: Recording?) -> String? {
        guard let survey, !survey.hearsAny(of: venue.nodes) else { return nil }
        return "the survey given for venue '\(venue.id)' at the server's start hears none of its \(venue.nodes.count) "
            + "nodes; give the venue the nodes the survey heard, or start the server with its own survey"
    }
}
