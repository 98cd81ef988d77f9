import Foundation

/// A floor's plan image as stored with its venue (`PUT /v1/venues/{id}/floors/{level}/image`): the image's bytes,
/// their media type and where the image lies on the floor.
public struct StoredFloorImage: Hashable, Sendable {
    /// The venue's id.
    public var venue: String
    /// The floor's level.
    public var level: Int
    /// `image/png`, `image/jpeg` or `image/svg+xml`, as the bytes begin (``FloorImage/mediaType(of:)``).
    public var contentType: String
    /// The image file's bytes (at most ``FloorImage/maximumBytes``).
    public var data: Data
    /// The placement as JSON (``FloorImagePlacement``), or `nil` while the image is not placed.
    public var placement: Data?
    /// When the image or its placement was last put (Unix seconds, wall clock).
    public var updatedAt: Double

    /// A stored floor image.
    public init(venue: String, level: Int, contentType: String, data: Data, placement: Data?, updatedAt: Double) {
        self.venue = venue
        self.level = level
        self.contentType = contentType
        self.data = data
        self.placement = placement
        self.updatedAt = updatedAt
    }
}
