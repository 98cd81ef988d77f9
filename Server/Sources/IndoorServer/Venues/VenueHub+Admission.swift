import Foundation

extension VenueHub {
    /// What ``admit(venue:sightings:)`` did with a batch.
    public struct Admission: Sendable {
        /// The stored events the batch caused, in time order.
        public var stored: [StoredEvent]
        /// The sightings refused: their index in the batch given, the field that was wrong (`t`, `node`, `device`)
        /// and why.
        public var refused: [(index: Int, field: String, message: String)]
        /// Each stored event's JSON as the store keeps it (``ServerEvent/json(_:)``), in the order of `stored`.
        public var eventJSON: [Data] = []
    }
}
