import Foundation
import IndoorModel
import Testing

@testable import IndoorServer

/// The venues a hub knows: the runtimes run here, and in a cluster the catalog of every stored venue.
@Suite struct VenueRegistryTests {
    /// The fixture's venue under `id`, named `name`.
    static func venue(_ id: String, name: String = "Tiny") throws -> Venue {
        let json = ServerFixture.venueJSON.replacingOccurrences(of: #""id": "tiny""#, with: #""id": "\#(id)""#)
            .replacingOccurrences(of: #""name": "Tiny""#, with: #""name": "\#(name)""#)
        return try Venue.decodeJSON(Data(json.utf8))
    }

    static func runtime(_ id: String, name: String = "Tiny") throws -> VenueRuntime {
        try VenueRuntime(venue: try venue(id, name: name), learnsSurvey: false)
    }

    @Test func aServerAloneKnowsTheVenuesItRuns() throws {
        let a = try Self.runtime("a")
        let registry = VenueRegistry(clustered: false, runtimes: ["a": a], catalog: ["z": try Self.venue("z")])
        #expect(registry.venueIDs == ["a"])
        #expect(registry.ownedVenueIDs == ["a"])
        #expect(registry.owns(venue: "a"))
        #expect(registry.runtime("a") === a)
        #expect(registry.venue(id: "a")?.id == "a")
        // The catalog speaks only in a cluster.
        #expect(registry.venue(id: "z") == nil)

        let b = try Self.runtime("b")
        registry.run(b)
        #expect(registry.venueIDs == ["a", "b"])
        #expect(registry.all.count == 2)
        #expect(registry.removeRuntime(venue: "a") === a)
        #expect(registry.removeRuntime(venue: "a") == nil)
        #expect(registry.venueIDs == ["b"])
    }

    @Test func aClusterInstanceKnowsEveryCataloguedVenueAndRunsItsOwn() throws {
        let registry = VenueRegistry(clustered: true)
        registry.replaceCatalog(["a": try Self.venue("a"), "b": try Self.venue("b")])
        registry.run(try Self.runtime("b", name: "B here"))
        #expect(registry.venueIDs == ["a", "b"])
        #expect(registry.ownedVenueIDs == ["b"])
        #expect(!registry.owns(venue: "a"))
        #expect(registry.catalogued(venue: "a"))
        #expect(registry.venue(id: "a")?.id == "a")
        // The version run here comes first.
        #expect(registry.venue(id: "b")?.name == "B here")

        registry.catalogue(try Self.venue("c"))
        registry.uncatalogue(venue: "a")
        #expect(registry.venueIDs == ["b", "c"])
        #expect(!registry.catalogued(venue: "a"))
        #expect(registry.venue(id: "a") == nil)
    }

    @Test func aReplacedRuntimeIsNoLongerCurrentAndIsNotRemovedForItsReplacement() throws {
        let registry = VenueRegistry(clustered: false)
        let old = try Self.runtime("a")
        let new = try Self.runtime("a", name: "Renamed")
        registry.run(old)
        #expect(registry.isCurrent(old))
        registry.run(new)
        #expect(!registry.isCurrent(old))
        #expect(registry.isCurrent(new))
        registry.remove(old)
        #expect(registry.runtime("a") === new)
        registry.remove(new)
        #expect(registry.runtime("a") == nil)
        #expect(!registry.isCurrent(new))
    }

    @Test func venuesByNodeAndDevicesAreCountedOverTheRuntimes() throws {
        let registry = VenueRegistry(clustered: false)
        registry.run(try Self.runtime("b"))
        registry.run(try Self.runtime("a"))
        #expect(registry.venues(withNode: "n1") == ["a", "b"])
        #expect(registry.venues(withNode: "n9").isEmpty)
        #expect(registry.deviceCount == 0)
        // The devices each venue's session holds, summed.
        for (id, devices) in [("a", ["p", "q"]), ("b", ["p"])] {
            registry.runtime(id)?.locked { state in
                _ = state.session.ingest(devices.map { Sighting(time: 1, device: $0, node: "n1", rssi: -60) })
            }
        }
        #expect(registry.deviceCount == 3)
    }
}
