/// A method that learns from a survey was asked for without one.
public struct MissingSurveyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The method name that was asked for.
    public var method: String
    public var description: String {
        "method '\(method)' learns from a survey: give the dataset a train/ folder (sightings and truth)"
    }
}
