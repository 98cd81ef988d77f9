/// A body of `POST /v1/sightings` refused as a whole: the field (`body`, `venue`, `sightings`) and why.
///
/// The server answers it as 400 `invalidJSON` (``APIError``) with this field and message.
package struct BatchBodyError: Error, Hashable, Sendable {
    /// `body` for text that is not JSON or not an object, else the top-level key.
    package var field: String
    /// What was wrong: `not valid JSON: line 1, column 9 (byte 8): …`, `missing field 'venue'`.
    package var message: String

    package init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}
