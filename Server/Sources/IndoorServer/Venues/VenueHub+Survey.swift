import Foundation
import IndoorModel
import IndoorSession
import Logging

extension VenueHub {
    /// Whether `venue`'s survey is learned: `none` (no survey given, or no such venue), `learning` (its session and
    /// scans run without it meanwhile), `learned`, or `failed` (the log says why; they run without it).
    public func surveyState(venue id: String) -> String {
        guard let runtime = registry.runtime(id) else { return "none" }
        return runtime.locked { $0.survey.rawValue }
    }

    /// Returns once `venue`'s survey is learned (or its learning failed), and at once for a venue without one.
    public func learned(venue id: String) async {
        await learning.finished(id)
    }

    /// For a venue with a survey, learns it in the background (after any other venue's learning): the venue's
    /// session takes over the learned positioning, then its scans' session is made with the survey. Skipped when
    /// the runtime has been replaced or deleted by then.
    func learnSurvey(_ runtime: VenueRuntime) {
        let venue = runtime.venue
        guard let survey = surveys[venue.id] else { return }
        learning.schedule(key: venue.id) { [self] in
            guard isCurrent(runtime) else { return }
            let start = ContinuousClock.now
            var adopted = false
            do {
                let learned = try LocationSession(SessionConfiguration(venue: venue, survey: survey))
                try runtime.locked { state in
                    try state.session.adoptPositioning(of: learned, replaying: state.recent?.sightings ?? [])
                    state.recent = nil
                }
                adopted = true
                guard isCurrent(runtime) else { return }
                let options = IndoorScan.Options(surveys: [venue.id: survey])
                let scans = try IndoorScan.session(venue: venue, options: options)
                if isCurrent(runtime) { scanSessions.withLock { $0[venue.id] = (venue, scans, true) } }
                runtime.locked { $0.survey = .learned }
                recordLearning()
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
                recordLearning()
                let what = adopted ? "its fixes come from its survey, its scans run without it" : "it runs without it"
                logger.error(
                    "venue '\(venue.id)' could not learn its survey; \(what)", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Sets `indoor_venues_learning`: the venues served whose survey is being learned.
    func recordLearning() {
        let count = registry.all.reduce(0) { $0 + ($1.locked { $0.survey == .learning } ? 1 : 0) }
        metrics.venuesLearning.record(count)
    }

    /// Whether `runtime` still serves its venue (not replaced or deleted since).
    private func isCurrent(_ runtime: VenueRuntime) -> Bool {
        registry.isCurrent(runtime)
    }

    /// Why `survey` cannot serve `venue` (it hears none of its nodes), or `nil`.
    static func surveyProblem(_ venue: Venue, _ survey: Recording?) -> String? {
        guard let survey, !survey.hearsAny(of: venue.nodes) else { return nil }
        return "the survey given for venue '\(venue.id)' at the server's start hears none of its \(venue.nodes.count) "
            + "nodes; give the venue the nodes the survey heard, or start the server with its own survey"
    }
}
