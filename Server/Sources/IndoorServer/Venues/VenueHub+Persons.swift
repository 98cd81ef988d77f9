import Foundation
import IndoorModel

extension VenueHub {
    /// Each person of venue `id` with where they are now (``PersonUpdate``), in the venue's order; `nil` when the
    /// venue does not run here.
    public func persons(venue id: String) -> [PersonUpdate]? {
        registry.runtime(id)?.personUpdates
    }

    /// Enrols `person` in venue `id`, or replaces the person of that id: the venue is stored with it and put as
    /// ``putVenue(id:json:)`` puts a venue (its session starts afresh; open visits carry over, now grouped by the
    /// venue's persons). One edit of persons runs at a time.
    /// - Returns: The venue as stored and whether the person is new.
    /// - Throws: ``APIError`` (404) for an unknown venue; (400, field `devices`) when a device belongs to another
    ///   person of the venue.
    public func putPerson(_ person: Person, venue id: String) async throws -> (venue: Venue, created: Bool) {
        try await personEdits.run {
            var venue = try await self.storedVenue(id: id)
            for other in venue.persons where other.id != person.id {
                if let device = person.devices.first(where: other.devices.contains) {
                    throw APIError.badRequest(
                        field: "devices",
                        "device '\(device)' already belongs to person '\(other.id)' of venue '\(id)'; a device belongs to one person"
                    )
                }
            }
            let index = venue.persons.firstIndex { $0.id == person.id }
            if let index { venue.persons[index] = person } else { venue.persons.append(person) }
            let (stored, _) = try await self.putVenue(id: id, json: try venue.encodeJSON())
            return (stored, index == nil)
        }
    }

    /// Takes the person `person` out of venue `id`: their devices count as themselves again. What was stored of
    /// them (their events) stays, as a device's does until erased or expired.
    /// - Returns: Whether the venue had that person.
    /// - Throws: ``APIError`` (404) for an unknown venue.
    public func deletePerson(_ person: String, venue id: String) async throws -> Bool {
        try await personEdits.run {
            var venue = try await self.storedVenue(id: id)
            guard let index = venue.persons.firstIndex(where: { $0.id == person }) else { return false }
            venue.persons.remove(at: index)
            _ = try await self.putVenue(id: id, json: try venue.encodeJSON())
            return true
        }
    }

    /// The venue `id` as stored (also where it runs on another instance of a cluster).
    /// - Throws: ``APIError`` (404) for an unknown venue.
    func storedVenue(id: String) async throws -> Venue {
        guard let stored = try await store.venue(id: id) else { throw APIError.unknownVenue(id) }
        return try Venue.decodeJSON(stored.json)
    }
}
