/// A sighting of a batch that was refused: its index, the field and why.
package struct ItemError: Error, Codable, Hashable, Sendable {
    package var index: Int
    package var field: String
    package var message: String

    package init(index: Int, field: String, message: String) {
        self.index = index
        self.field = field
        self.message = message
    }
}
