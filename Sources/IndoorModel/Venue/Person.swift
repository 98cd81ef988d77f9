import Foundation

/// A person who carries several devices (a phone, a watch, a keyring tag): the venue counts and follows them once.
///
/// Occupancy counts a person once in a zone, however many of their devices are in it; a person's zone events say when
/// the first of their devices checked in and the last checked out; their position is the freshest confident fix of
/// their devices (`PersonLocator` in IndoorGeofencing). Enrolling a person is the operator's choice: a device of no person stays a
/// device, named by its (pseudonymous) id. docs/INTEGRATIONS.md documents the JSON.
public struct Person: Hashable, Sendable, Codable, Identifiable {
    /// Unique among the venue's persons: letters, digits, `-`, `_` and `.`, at most ``maximumIDLength`` characters.
    public var id: String
    /// For people, e.g. `Anna`; defaults to `id` in JSON.
    public var name: String
    /// The ids of the person's devices, as the venue's events name them (after pseudonymisation, when the server
    /// pseudonymises ids). A device belongs to at most one person of a venue.
    public var devices: [String]

    /// The longest person id, in characters.
    public static let maximumIDLength = 64
    /// The most devices one person groups.
    public static let maximumDevices = 32

    /// A person named `name` grouping `devices`.
    public init(id: String, name: String, devices: [String]) {
        self.id = id
        self.name = name
        self.devices = devices
    }

    enum CodingKeys: String, CodingKey {
        case id, name, devices
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .id)
        if let problem = Self.problem(withID: id) {
            throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: problem)
        }
        let devices = try container.decodeIfPresent([String].self, forKey: .devices) ?? []
        guard devices.count <= Self.maximumDevices else {
            throw DecodingError.dataCorruptedError(
                forKey: .devices, in: container,
                debugDescription:
                    "a person groups at most \(Self.maximumDevices) devices; this one lists \(devices.count)")
        }
        var seen = Set<String>()
        for (index, device) in devices.enumerated() {
            guard !device.isEmpty else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: container.codingPath + [CodingKeys.devices, IndexKey(index)],
                        debugDescription: "a device id must not be empty"))
            }
            guard seen.insert(device).inserted else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: container.codingPath + [CodingKeys.devices, IndexKey(index)],
                        debugDescription: "device '\(device)' is listed twice"))
            }
        }
        self.init(id: id, name: try container.decodeIfPresent(String.self, forKey: .name) ?? id, devices: devices)
    }

    /// Why `id` cannot be a person's id, or `nil` when it can.
    public static func problem(withID id: String) -> String? {
        if id.isEmpty { return "a person id must not be empty" }
        if id.count > maximumIDLength {
            return "a person id has at most \(maximumIDLength) characters; '\(id.prefix(20))…' has \(id.count)"
        }
        let allowed = id.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "-_.".unicodeScalars.contains($0)
        }
        return allowed ? nil : "person id '\(id)' may hold only letters a-z and A-Z, digits, '-', '_' and '.'"
    }
}

extension Venue {
    /// The person each device belongs to, by device id (``persons``).
    public var personOfDevice: [String: String] {
        var owner: [String: String] = [:]
        for person in persons {
            for device in person.devices where owner[device] == nil { owner[device] = person.id }
        }
        return owner
    }

    /// Person ids are unique and a device belongs to at most one person.
    func checkPersons() throws {
        var firstPerson: [String: Int] = [:]
        var owner: [String: String] = [:]
        for (index, person) in persons.enumerated() {
            if let first = firstPerson[person.id] {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: [CodingKeys.persons, IndexKey(index), Person.CodingKeys.id],
                        debugDescription: "person id '\(person.id)' is already used by persons[\(first)]"))
            }
            firstPerson[person.id] = index
            for (position, device) in person.devices.enumerated() {
                if let other = owner[device] {
                    throw DecodingError.dataCorrupted(
                        DecodingError.Context(
                            codingPath: [
                                CodingKeys.persons, IndexKey(index), Person.CodingKeys.devices, IndexKey(position),
                            ],
                            debugDescription: "device '\(device)' already belongs to person '\(other)'"))
                }
                owner[device] = person.id
            }
        }
    }
}
