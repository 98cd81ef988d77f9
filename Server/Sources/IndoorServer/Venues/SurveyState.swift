/// How far a venue's site survey is learned (``VenueHub/surveyState(venue:)``; `survey` in `GET /v1/venues`, encoded
/// as its raw value).
public enum SurveyState: String, Hashable, Sendable, Encodable {
    /// The venue has no survey (none given at the server's start, none recorded or put), or there is no such venue.
    case none
    /// The survey is being learned in the background; the venue's session and scans run without it meanwhile.
    case learning
    /// The venue's session and scans position over what was learned from the survey.
    case learned
    /// Learning failed (the log says why); the venue runs without its survey.
    case failed
}
