import Foundation

/// Why a venue cannot be written as IMDF: the JSON path in the venue of what is missing or wrong, and what to do.
///
/// The description reads `anchor: venue 'hq' has no anchor: …`.
public struct IMDFExportError: Error, Hashable, Sendable {
    /// The JSON path in the venue of the value that is missing or wrong (`anchor`, `floors[1].outline`).
    public var field: String
    /// What was wrong and how to fix it.
    public var message: String

    /// A problem with the venue's `field`, described by `message`.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}

extension IMDFExportError: CustomStringConvertible, LocalizedError {
    public var description: String { "\(field): \(message)" }

    public var errorDescription: String? { description }
}
