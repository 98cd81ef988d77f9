import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorModel
import IndoorServer
import IndoorServerTestSupport
import NIOCore

/// A server over a new database (a SQLite file in a temporary folder of its own, unless another ``StoreKind`` is
/// given), with one key of each kind.
struct ServerFixture {
    static let admin = "test-admin-key"
    static let ingest = "test-ingest-key"
    static let read = "test-read-key"

    let database: TestDatabase
    let server: LocationServer

    /// The test's temporary folder.
    var folder: URL { database.folder }

    /// A server over a new database of `store`'s kind, or over `database` again (a restart).
    init(
        store: StoreKind = .sqlite, configuration: ServerConfiguration = ServerConfiguration(),
        database: TestDatabase? = nil, surveys: [String: Recording] = [:]
    ) async throws {
        let database = try database ?? TestDatabase(store)
        self.database = database
        server = try await LocationServer(
            store: try await database.open(), configuration: configuration, surveys: surveys)
        try await server.keys.add(Self.admin, kind: .admin, label: "admin")
        try await server.keys.add(Self.ingest, kind: .ingest, label: "ingest")
        try await server.keys.add(Self.read, kind: .read, label: "read")
    }

    func remove() {
        database.remove()
    }

    /// Runs `test` against the router in-process.
    func test(_ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let app = Application(router: server.router())
        try await app.test(.router) { client in try await test(client) }
    }

    static func headers(_ key: String?) -> HTTPFields {
        var fields = HTTPFields()
        if let key { fields[.authorization] = "Bearer \(key)" }
        return fields
    }

    /// The README's two-node venue with a fenced zone and a geoline.
    static let venueJSON = """
        {"id": "tiny", "name": "Tiny", "anchor": {"latitude": 52.5, "longitude": 13.4},
         "floors": [{"level": 0, "outline": [[-5, -10], [25, -10], [25, 10], [-5, 10]]}],
         "nodes": [{"id": "n1", "x": 0, "y": 0}, {"id": "n2", "x": 20, "y": 0}],
         "zones": [
           {"id": "east", "name": "East room", "fences": [{"polygon": [[15, -5], [25, -5], [25, 5], [15, 5]]}],
            "checkOutTime": 2, "data": {"team": "blue"}},
           {"id": "gate", "name": "Gate", "geolines": [{"id": "door", "points": [[10, -5], [10, 5]]}]}]}
        """

    /// ``venueJSON`` with another name: a changed venue, so a `PUT` of it replaces the venue's session and ends its
    /// streams.
    static let renamedVenueJSON = venueJSON.replacingOccurrences(
        of: #""name": "Tiny""#, with: #""name": "Tiny, renamed""#)

    /// The README's walk: east at t = 10, back west at t = 20, checked out at t = 22 (dwell 10 s).
    static let walk = """
        [{"t": 0, "device": "p", "node": "n1", "rssi": -59}, {"t": 1, "device": "p", "node": "n1", "rssi": -60},
         {"t": 10, "device": "p", "node": "n2", "rssi": -59}, {"t": 11, "device": "p", "node": "n2", "rssi": -58},
         {"t": 20, "device": "p", "node": "n1", "rssi": -59}, {"t": 22, "device": "p", "node": "n1", "rssi": -59}]
        """
}

extension TestResponse {
    /// The body as a JSON object.
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
    }

    var text: String { String(buffer: body) }
}

extension TestClientProtocol {
    func putVenue(_ json: String = ServerFixture.venueJSON, id: String = "tiny") async throws -> TestResponse {
        try await execute(
            uri: "/v1/venues/\(id)", method: .put, headers: ServerFixture.headers(ServerFixture.admin),
            body: ByteBuffer(string: json))
    }

    func post(_ body: String, key: String? = ServerFixture.ingest) async throws -> TestResponse {
        try await execute(
            uri: "/v1/sightings", method: .post, headers: ServerFixture.headers(key), body: ByteBuffer(string: body))
    }

    func get(_ uri: String, key: String? = ServerFixture.read) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: ServerFixture.headers(key))
    }
}
