/// A method that learns from a survey was asked for without one.
public struct MissingSurveyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The method name that was asked for.
    public var method: String

    /// The error for `method`, a method that learns from a survey (the session throws it; for an app's tests).
    public init(method: String) {
        self.method = method
    }

    public var description: String {
        "method '\(method)' learns from a survey: give the dataset a train/ folder (sightings and truth)"
    }
}
