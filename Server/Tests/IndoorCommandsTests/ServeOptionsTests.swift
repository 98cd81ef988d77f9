import ArgumentParser
import IndoorServer
import Testing

@testable import IndoorCommands

@Suite("indoor serve options")
struct ServeOptionsTests {
    @Test(arguments: [
        ("90s", 90.0), ("30m", 1800), ("12h", 43200), ("7d", 604_800), ("3600", 3600), ("0.5d", 43200),
        ("forever", Double.infinity),
    ])
    func aRetentionIsADuration(text: String, seconds: Double) {
        #expect(ServeCommand.duration(text) == seconds)
    }

    @Test func maxDevicesIsACount() throws {
        let parsed = try IndoorCommand.parseAsRoot(["serve", "--max-devices", "250"])
        #expect((parsed as? ServeCommand)?.maxDevices == 250)
        let defaults = try IndoorCommand.parseAsRoot(["serve"])
        #expect((defaults as? ServeCommand)?.maxDevices == 100_000)
    }

    @Test(arguments: ["", "7x", "d", "0", "-1h", "never", "1e400"])
    func anythingElseIsRefused(text: String) {
        #expect(ServeCommand.duration(text) == nil)
        #expect(throws: (any Error).self) { try IndoorCommand.parseAsRoot(["serve", "--retain-sightings", text]) }
    }
}

@Suite("indoor serve: what is published over MQTT")
struct ServePublishOptionsTests {
    static func options(_ arguments: [String]) throws -> ServeMQTTOptions {
        let parsed = try IndoorCommand.parseAsRoot(["serve", "--mqtt", "mqtt://127.0.0.1"] + arguments)
        return try #require(parsed as? ServeCommand).gateways
    }

    @Test func nothingIsPublishedUnlessAskedFor() throws {
        let options = try Self.options([])
        #expect(options.published == nil)
        #expect(options.homeAssistantDiscovery == nil)
    }

    @Test func publishAloneIsEveryDeviceAndPublishDeviceLimitsIt() throws {
        #expect(try Self.options(["--publish"]).published == .every)
        let some = try Self.options(["--publish", "--publish-device", "phone-*", "--publish-device", "tag-7"])
        #expect(some.published == .matching(["phone-*", "tag-7"]))
        #expect(some.published?.contains("phone-anna") == true)
        #expect(some.published?.contains("tag-7") == true)
        #expect(some.published?.contains("anon-3f2a") == false)
    }

    @Test func homeAssistantIsGivenTheListedDevicesOrEveryOneForAStar() throws {
        let listed = try Self.options(["--home-assistant", "--home-assistant-device", "anna-iphone"])
        #expect(listed.homeAssistantDiscovery?.devices == .matching(["anna-iphone"]))
        #expect(listed.homeAssistantDiscovery?.devices.contains("bob-watch") == false)
        let every = try Self.options(["--home-assistant", "--home-assistant-device", "*"])
        #expect(every.homeAssistantDiscovery?.devices == .every)
        #expect(every.homeAssistantDiscovery?.devices.contains("beacon/1/7") == true)
        // Home Assistant's trackers do not turn on the publishing of fixes and events.
        #expect(every.published == nil)
    }
}

@Suite("indoor serve: options that need another")
struct ServeOptionPairsTests {
    @Test(arguments: [
        (["--tls-cert", "c.pem"], "--tls-cert needs --tls-key"),
        (["--tls-key", "k.pem"], "--tls-key needs --tls-cert"),
        (["--home-assistant"], "--home-assistant needs --mqtt"),
        (["--irks", "irks.json"], "--irks needs --mqtt"),
        (["--mqtt-version", "5"], "--mqtt-version needs --mqtt"),
        (["--mqtt", "mqtt://broker", "--mqtt-version", "4"], "--mqtt-version"),
        (["--mqtt", "http://broker"], "--mqtt 'http://broker'"),
        (["--mqtt", "mqtt://user:secret@broker"], "INDOOR_MQTT_PASSWORD"),
        (["--mqtt", "mqtt://broker", "--publish-root", "indoor/#"], "--publish-root 'indoor/#'"),
        (["--publish"], "--publish needs --mqtt"),
        (["--mqtt", "mqtt://broker", "--publish-device", "phone-*"], "--publish-device needs --publish"),
        (["--mqtt", "mqtt://broker", "--home-assistant"], "--home-assistant-device '*' gives it every device"),
        (
            ["--mqtt", "mqtt://broker", "--home-assistant-device", "*"],
            "--home-assistant-device needs --home-assistant"
        ),
        (["--stream-buffer", "0"], "--stream-buffer must be at least 1"),
        (["--max-devices", "0"], "--max-devices must be at least 1"),
        (["--max-connections-per-address", "0"], "--max-connections-per-address must be at least 1"),
        (["--retain-events", "soon"], "--retain-events 'soon'"),
        (["--retain-open-visits", "soon"], "--retain-open-visits 'soon'"),
        (["--database", "postgres://db.example/indoor"], "--database: 'postgres://db.example/indoor' names no user"),
        (["--database", "postgres://u@db/x?sslmode=sometimes"], "sslmode 'sometimes' is not one of disable, prefer"),
        (["--database", "postgres://u@db/x", "--durability", "full"], "--durability is for a SQLite database"),
    ])
    func isRefusedSayingWhy(arguments: [String], message: String) {
        do {
            _ = try IndoorCommand.parseAsRoot(["serve"] + arguments)
            Issue.record("\(arguments) was accepted")
        } catch {
            #expect(IndoorCommand.message(for: error).contains(message), "\(IndoorCommand.message(for: error))")
        }
    }
}
