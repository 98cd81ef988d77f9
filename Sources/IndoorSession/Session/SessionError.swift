/// A session setting that cannot work, with a message that says which and why.
public struct SessionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, for people.
    public var message: String

    /// An error described by `message` (the session makes them; an app makes them for its tests).
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
