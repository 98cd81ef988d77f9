import Foundation

/// A key's hash, what it may do and its lifecycle (who made it, when, until when, where it was last used).
public struct StoredKey: Hashable, Sendable {
    /// Lower-case hex SHA-256 of the key's UTF-8 bytes (never shown by the API).
    public var hash: String
    /// What the key may do.
    public var kind: KeyKind
    /// A label for people (never the key).
    public var label: String
    /// The key's public id (16 random hex digits): what `GET /v1/keys` lists and `DELETE /v1/keys/{id}` revokes.
    /// Not derived from the key.
    public var id: String
    /// Who made the key: given by the operator at start, made through the API, or made by the server.
    public var origin: KeyOrigin
    /// When the key was stored, Unix seconds.
    public var created: Double
    /// When the key was last accepted, Unix seconds (to about a minute), `nil` when never.
    public var lastUsed: Double?
    /// When the key stops being accepted, Unix seconds; `nil`: never.
    public var expires: Double?
    /// The venues the key is limited to; `nil`: every venue.
    public var venues: [String]?

    /// A stored key, made now with a new id unless given.
    public init(
        hash: String, kind: KeyKind, label: String, id: String = StoredKey.newID(), origin: KeyOrigin = .api,
        created: Double = Date().timeIntervalSince1970, lastUsed: Double? = nil, expires: Double? = nil,
        venues: [String]? = nil
    ) {
        self.hash = hash
        self.kind = kind
        self.label = label
        self.id = id
        self.origin = origin
        self.created = created
        self.lastUsed = lastUsed
        self.expires = expires
        self.venues = venues
    }

    /// A new key id: 8 random bytes as 16 lower-case hex digits.
    public static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// Whether the key has expired at `now` (Unix seconds).
    public func isExpired(at now: Double) -> Bool {
        expires.map { $0 <= now } ?? false
    }

    /// Whether the key may be used for `venue` (always without a venue limit).
    public func allows(venue: String) -> Bool {
        venues.map { $0.contains(venue) } ?? true
    }

    /// The venue list as stored: a JSON array, or `nil` for every venue.
    var venuesJSON: String? {
        guard let venues, let data = try? JSONEncoder().encode(venues) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The venue list of a stored JSON array; `nil` for `nil` or anything not an array of texts.
    static func venues(json: String?) -> [String]? {
        guard let json else { return nil }
        return try? JSONDecoder().decode([String].self, from: Data(json.utf8))
    }
}

/// Who made a key.
public enum KeyOrigin: String, Hashable, Sendable, Codable, CaseIterable {
    /// Given with `--admin-key`, `--ingest-key` or `--read-key` (or their variables): retired at a start that no
    /// longer gives it.
    case `operator`
    /// Made with `POST /v1/keys`.
    case api
    /// Made by the server (the admin key printed once when the database had none, the demo's keys).
    case generated
}

/// What a key may do: `admin` everything, `ingest` post sightings, `read` read the API, the stream and the map.
public enum KeyKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// Venue changes, keys, and everything the other kinds may do.
    case admin
    /// Posting sightings.
    case ingest
    /// Reading venues, devices, activity, the stream and the map.
    case read

    /// Whether a key of this kind may do what `required` allows.
    public func allows(_ required: KeyKind) -> Bool {
        self == .admin || self == required
    }
}
