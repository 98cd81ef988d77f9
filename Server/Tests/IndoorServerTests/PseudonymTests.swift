import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorModel
import IndoorServerTestSupport
import NIOCore
import Testing

@testable import IndoorServer

/// Pseudonymous device ids (issue 50): a gateway-derived id is replaced at ingest by `anon-<hex>` before any table,
/// answer or stream sees it, the same on every instance; ids the operator chose stay readable; `rawDeviceIds` keeps
/// them all.
@Suite struct PseudonymTests {
    static let mac = "AA:BB:CC:0D:EE:01"

    static func walk(_ device: String) -> String {
        ErasureTests.walk(device)
    }

    @Test func theRuleTellsGatewayIdsFromChosenOnes() throws {
        for id in [
            "AA:BB:CC:DD:EE:FF", "aa-bb-cc-dd-ee-ff", "aabbccddeeff", "irk:00112233445566778899aabbccddeeff",
            "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/42", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0",
            "eddystone-uid:00112233445566778899:aabbccddeeff", "apple:1005:9-26", "name:Annas iPhone",
        ] {
            #expect(DevicePseudonyms.isGatewayDerived(id), "\(id)")
        }
        for id in ["phone-anna", "p", "tag-17", "walker-3", "anna-iphone", "n1"] {
            #expect(!DevicePseudonyms.isGatewayDerived(id), "\(id)")
        }
        let pseudonyms = DevicePseudonyms(
            secret: Data(repeating: 7, count: 32), names: ["aa:bb:cc:dd:ee:02": "keys-anna"], readable: ["anna-iphone"])
        let hashed = pseudonyms.device("AA:BB:CC:DD:EE:FF")
        #expect(hashed.hasPrefix("anon-"))
        #expect(hashed.count == 21)
        #expect(pseudonyms.device("AA:BB:CC:DD:EE:FF") == hashed)
        #expect(DevicePseudonyms(secret: Data(repeating: 8, count: 32)).device("AA:BB:CC:DD:EE:FF") != hashed)
        #expect(pseudonyms.device("AA:BB:CC:DD:EE:02") == "keys-anna")
        #expect(pseudonyms.device("anna-iphone") == "anna-iphone")
        // An enrolled name stays readable even when it looks gateway-made, and after its pseudonym was asked for.
        let enrolled = DevicePseudonyms(secret: Data(repeating: 7, count: 32), readable: ["apple:anna"])
        #expect(enrolled.storedIDs(for: "apple:anna").count == 2)
        #expect(enrolled.device("apple:anna") == "apple:anna")
        #expect(pseudonyms.device("phone-anna") == "phone-anna")
        // A node id of the venue (a node-to-node link) stays as it is, whatever it looks like.
        #expect(pseudonyms.device("AA:BB:CC:DD:EE:FF", nodes: ["AA:BB:CC:DD:EE:FF"]) == "AA:BB:CC:DD:EE:FF")
        #expect(DevicePseudonyms.raw().device("AA:BB:CC:DD:EE:FF") == "AA:BB:CC:DD:EE:FF")
        // Log lines lose the raw ids.
        let line = pseudonyms.scrub(
            "espresense/devices/irk:00112233445566778899aabbccddeeff/n9: id aa:bb:cc:dd:ee:ff is random")
        #expect(!line.contains("irk:0011"))
        #expect(!line.lowercased().contains("aa:bb:cc:dd:ee:ff"))
        #expect(line.contains(hashed))
    }

    @Test(arguments: StoreKind.tested)
    func aMACNeverReachesATableOrAnAnswerAndMapsTheSameAfterARestart(store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        let pseudonym = fixture.server.hub.pseudonyms.device(Self.mac)
        #expect(pseudonym.hasPrefix("anon-"))
        try await fixture.test { client in
            _ = try await client.putVenue()
            let posted = try await client.post(Self.walk(Self.mac))
            #expect(posted.status == .ok)
            #expect(!posted.text.contains(Self.mac))
            #expect(posted.text.contains(pseudonym))
            _ = try await client.post(Self.walk("phone-anna"))
            let devices = try await client.get("/v1/venues/tiny/devices?within=1000000000").text
            #expect(devices.contains(pseudonym))
            #expect(devices.contains("phone-anna"))
            #expect(!devices.contains(Self.mac))
            #expect(!(try await client.get("/v1/activity?venue=tiny&limit=1000").text.contains(Self.mac)))
        }
        #expect(try await !ErasureTests.stored(Self.mac, fixture: fixture))
        #expect(try await ErasureTests.stored(pseudonym, fixture: fixture))
        // Another server over the same store (a restart, another instance) makes the same pseudonym.
        let again = try await ServerFixture(store: store, database: fixture.database)
        #expect(again.server.hub.pseudonyms.device(Self.mac) == pseudonym)
        // Erasing by the raw address erases the pseudonym's rows.
        try await again.test { client in
            let erased = try await client.execute(
                uri: "/v1/devices/\(Self.mac)", method: .delete, headers: ServerFixture.headers(ServerFixture.admin))
            #expect(erased.status == .ok)
            #expect((erased.json["erased"] as? [String: Int])?["sightings"] == 6)
            #expect(erased.json["ids"] as? [String] == [Self.mac, pseudonym])
        }
        #expect(try await !ErasureTests.stored(pseudonym, fixture: fixture))
    }

    @Test func rawDeviceIdsKeepTheMAC() async throws {
        var configuration = ServerConfiguration()
        configuration.deviceIDs = DeviceIDSettings(raw: true)
        let fixture = try await ServerFixture(configuration: configuration)
        defer { fixture.remove() }
        try await fixture.test { client in
            _ = try await client.putVenue()
            let posted = try await client.post(Self.walk(Self.mac))
            #expect(posted.text.contains(Self.mac))
        }
        #expect(try await ErasureTests.stored(Self.mac, fixture: fixture))
    }
}
