import Foundation
import Hummingbird
import IndoorModel

/// The persons of a venue (docs/INTEGRATIONS.md): `GET /v1/venues/{venue}/persons` and `…/persons/{person}` (with a
/// read key, audited: where people are) answer each person with where they are now (``PersonAnswer``);
/// `PUT …/persons/{person}` (admin) enrols or changes one, `{"name": …, "devices": […]}`, and `DELETE` takes one out.
/// The persons are part of the venue's JSON (`persons`), so `PUT /v1/venues/{venue}` sets them all at once.
struct PersonRoutes: RouteArea {
    let server: LocationServer

    struct PersonList: Encodable {
        var venue: String
        var persons: [PersonAnswer]
    }

    func collection() -> RouteCollection<IndoorRequestContext> {
        let routes = RouteCollection(context: IndoorRequestContext.self)
        let read = group(of: routes, needing: .read)
        let admin = group(of: routes, needing: .admin)
        read.get("/v1/venues/{venue}/persons") { request, context in
            let venue = try context.parameters.require("venue")
            if let elsewhere = try await forwarder.answerElsewhere(request, context, venue: venue) { return elsewhere }
            let answers = try await persons(venue: venue)
            return try JSONResponse(PersonList(venue: venue, persons: answers)).response(
                from: request, context: context)
        }
        read.get("/v1/venues/{venue}/persons/{person}") { request, context in
            let venue = try context.parameters.require("venue")
            let person = try context.parameters.require("person")
            if let elsewhere = try await forwarder.answerElsewhere(request, context, venue: venue) { return elsewhere }
            guard let answer = try await persons(venue: venue).first(where: { $0.id == person }) else {
                throw Self.unknown(person, venue: venue)
            }
            return try JSONResponse(answer).response(from: request, context: context)
        }
        admin.put("/v1/venues/{venue}/persons/{person}") { request, context in
            let venue = try context.parameters.require("venue")
            let id = try context.parameters.require("person")
            let person = try await Self.person(id: id, body: request.bodyBytes(limit: configuration.maxBodyBytes))
            let (_, created) = try await hub.putPerson(person, venue: venue)
            let update = hub.persons(venue: venue)?.first { $0.person == id }
            return try JSONResponse(PersonAnswer(person, update: update), status: created ? .created : .ok)
                .response(from: request, context: context)
        }
        admin.delete("/v1/venues/{venue}/persons/{person}") { _, context in
            let venue = try context.parameters.require("venue")
            let person = try context.parameters.require("person")
            guard try await hub.deletePerson(person, venue: venue) else { throw Self.unknown(person, venue: venue) }
            return Response(status: .noContent)
        }
        return routes
    }

    /// Every person of `venue` as stored, each with where they are when the venue runs here.
    private func persons(venue id: String) async throws -> [PersonAnswer] {
        let venue = try await hub.storedVenue(id: id)
        let updates = Dictionary(
            (hub.persons(venue: id) ?? []).map { ($0.person, $0) }, uniquingKeysWith: { first, _ in first })
        return venue.persons.map { PersonAnswer($0, update: updates[$0.id]) }
    }

    /// The person `id` a `PUT` body makes: `{"name"?: text, "devices": [ids]}` (an `id` in the body must be the
    /// path's).
    /// - Throws: ``APIError`` (400) naming the field.
    static func person(id: String, body: ByteBuffer) throws -> Person {
        if let problem = Person.problem(withID: id) { throw APIError.badRequest(field: "person", problem) }
        guard var object = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] else {
            throw APIError.badRequest(
                field: "body", "expected a JSON object {\"name\": \"Anna\", \"devices\": [\"anna-phone\", …]}",
                code: "invalidJSON")
        }
        if let given = object["id"], (given as? String) != id {
            throw APIError.badRequest(field: "id", "the body's id differs from the path's person id '\(id)'")
        }
        guard object["devices"] is [Any] else {
            throw APIError.badRequest(field: "devices", "devices must be a list of the person's device ids")
        }
        object["id"] = id
        do {
            let json = try JSONSerialization.data(withJSONObject: object)
            return try JSONFormat.decode(Person.self, from: json, file: "person")
        } catch let error as FormatError {
            throw APIError.badRequest(field: error.field ?? "body", error.message)
        }
    }

    private static func unknown(_ person: String, venue: String) -> APIError {
        APIError.notFound(
            field: "person", "venue '\(venue)' has no person '\(person)': see GET /v1/venues/\(venue)/persons")
    }
}
