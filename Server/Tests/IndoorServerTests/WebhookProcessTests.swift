import Foundation
import IndoorServer
import Synchronization
import Testing

/// A real `indoor serve` killed with SIGKILL while it delivers to a slow receiver, and started again on the same
/// database: every stored event reaches the receiver at least once, in order, signed.
@Suite(.serialized) struct WebhookProcessTests {
    static let admin = "a-key-6f1c2a9e4b7d0358"
    static let ingest = "i-key-93be0d5c71a4f826"
    static let secret = "a-secret-for-the-kill-test"

    @Test(arguments: StoreKind.tested)
    func everyEventIsDeliveredAcrossSIGKILL(store: StoreKind) async throws {
        guard let binary = DurabilityTests.binary else {
            print("WebhookProcessTests skipped: the indoor binary was not found beside the tests or in .build/debug")
            return
        }
        let database = try TestDatabase(store)
        defer { database.remove() }
        // The first delivery is acknowledged and every later one held: the kill always comes while a batch is in
        // flight and the rest are still to be delivered, however fast or loaded the machine.
        let receiver = Receiver(holdAfter: 1)
        try await receiver.run { port in
            let options = ["--webhook-allow-private"]
            let child = try DurabilityTests.Child(
                binary: binary, database: database.argument, options: options, environment: database.environment)
            defer { child.stop() }
            let (created, _) = try await DurabilityTests.request(
                child.port, "PUT", "/v1/venues/tiny", key: Self.admin, body: ServerFixture.venueJSON)
            #expect(created == 201)
            let hook =
                #"{"url": "http://127.0.0.1:\#(port)/hook", "events": ["fix", "checkIn", "checkOut", "occupancy"], "secret": "\#(Self.secret)"}"#
            let (made, answer) = try await DurabilityTests.request(
                child.port, "POST", "/v1/webhooks", key: Self.admin, body: hook)
            #expect(made == 201, "\(answer)")
            for device in 0..<50 {
                let (status, _) = try await DurabilityTests.request(
                    child.port, "POST", "/v1/sightings", key: Self.ingest, body: WebhookTests.walk(device: "d\(device)")
                )
                #expect(status == 200)
            }
            // Killed once one batch was acknowledged and the next is held in flight.
            try await WebhookTests.eventually(seconds: 120) { receiver.held > 0 }
            child.kill()
            let store = try await database.open()
            let stored = try await store.events(venue: "tiny", after: 0, limit: 100_000).map(\.id)
            #expect(Set(receiver.allIDs).count < stored.count, "everything was delivered before the kill")
            receiver.release()

            let again = try DurabilityTests.Child(
                binary: binary, database: database.argument, options: options, environment: database.environment)
            defer { again.stop() }
            try await receiver.waitFor(ids: stored, seconds: 120)
            #expect(receiver.firstSeen == stored)
            for request in receiver.requests {
                #expect(
                    WebhookSignature.isValid(
                        request.signature, body: request.body, timestamp: request.timestamp, secret: Self.secret))
            }
        }
    }
}
