import IndoorGateways
import Testing

/// Every bad input is refused with a reason and a message naming the topic and the field; nothing traps.
@Suite("Gateway payloads that are refused")
struct RefusedPayloadTests {
    let parser = GatewayMessageParser(resolver: try? IRKResolver(keys: ["phone": IRKTests.sampleKey]))

    /// The error `topic` with `payload` throws; nil (and an issue) when it is read.
    func refusal(_ topic: String, _ payload: [UInt8]) -> GatewayPayloadError? {
        do {
            let message = try parser.parse(topic: topic, payload: payload)
            Issue.record("\(topic) was read: \(message)")
            return nil
        } catch {
            return error
        }
    }

    func refusal(_ topic: String, _ payload: String) -> GatewayPayloadError? { refusal(topic, Array(payload.utf8)) }

    @Test func notJSON() {
        let error = refusal("espresense/devices/phone/kitchen", "rssi=-60")
        #expect(error?.reason == .notJSON)
        #expect(error?.message.hasPrefix("espresense/devices/phone/kitchen: ") == true)
        #expect(refusal("home/gw/BTtoMQTT/x", "[1, 2]")?.reason == .wrongType)
        #expect(refusal("home/gw/BTtoMQTT/x", String(repeating: "[", count: 5000))?.reason == .notJSON)
    }

    @Test func wrongTypesNameTheField() {
        let error = refusal("espresense/devices/phone/kitchen", #"{"rssi":true}"#)
        #expect(error?.reason == .wrongType)
        #expect(error?.field == "rssi")
        #expect(error?.message == "espresense/devices/phone/kitchen: rssi is a boolean; expected a number")
        #expect(refusal("espresense/devices/phone/kitchen", #"{"rssi":"loud"}"#)?.reason == .wrongType)
        #expect(refusal("home/gw/BTtoMQTT/x", #"{"id":7,"rssi":-60}"#)?.field == "id")
        #expect(refusal("home/gw/BTtoMQTT/x", #"{"id":"x","rssi":-60,"mac_type":"random"}"#)?.field == "mac_type")
        #expect(
            refusal(
                "home/gw/BTtoMQTT/x",
                #"{"id":"x","rssi":-60,"uuid":"e2c56db5dffb48d2b060d0f5a71096e0","major":1.5,"minor":2}"#)?
                .field == "major")
    }

    @Test func missingFields() {
        let error = refusal("home/gw/BTtoMQTT/x", #"{"id":"C0:FF:EE:00:00:01"}"#)
        #expect(error?.reason == .missingField)
        #expect(error?.field == "rssi")
        #expect(refusal("home/gw/BTtoMQTT/x", #"{"rssi":-60}"#)?.field == "id")
        #expect(refusal("espresense/devices/phone/kitchen", #"{"rssi":null}"#)?.reason == .missingField)
    }

    @Test func valuesOutOfRange() {
        let error = refusal("espresense/devices/phone/kitchen", #"{"rssi":"1000"}"#)
        #expect(error?.reason == .outOfRange)
        #expect(error?.field == "rssi")
        #expect(error?.message.contains("outside the physical range") == true)
        #expect(refusal("espresense/devices/phone/kitchen", #"{"rssi":-60,"rssi@1m":300}"#)?.field == "rssi@1m")
        #expect(refusal("espresense/devices/phone/kitchen", #"{"rssi":"nan"}"#)?.reason == .outOfRange)
        #expect(refusal("home/gw/BTtoMQTT/x", #"{"id":"x","rssi":-60,"txpower":-200}"#)?.field == "txpower")
        #expect(
            refusal(
                "home/gw/BTtoMQTT/x",
                #"{"id":"x","rssi":-60,"uuid":"e2c56db5dffb48d2b060d0f5a71096e0","major":70000,"minor":2}"#)?
                .reason == .outOfRange)
        #expect(refusal("home/gw/BTtoMQTT/x", #"{"id":"x","rssi":-60,"mac_type":9}"#)?.reason == .outOfRange)
        let long = String(repeating: "d", count: 129)
        #expect(refusal("espresense/devices/\(long)/kitchen", #"{"rssi":-60}"#)?.reason == .outOfRange)
        #expect(refusal("espresense/devices/phone/", #"{"rssi":-60}"#)?.reason == .outOfRange)
    }

    @Test func garbageHexNamesTheFieldAndOffset() {
        let odd = refusal("home/gw/BTtoMQTT/x", #"{"id":"x","rssi":-60,"manufacturerdata":"4c0"}"#)
        #expect(odd?.reason == .badHex)
        #expect(odd?.message == "home/gw/BTtoMQTT/x: manufacturerdata has an odd number of hex digits (3)")
        let nonHex = refusal(
            "home/gw/BTtoMQTT/x", #"{"id":"x","rssi":-60,"servicedata":"00zz","servicedatauuid":"feaa"}"#)
        #expect(nonHex?.reason == .badHex)
        #expect(
            nonHex?.message == "home/gw/BTtoMQTT/x: servicedata has a character that is not a hex digit at offset 2")
        #expect(
            refusal("home/gw/BTtoMQTT/x", #"{"id":"x","rssi":-60,"uuid":"not-a-uuid","major":1,"minor":2}"#)?.reason
                == .badHex)
    }

    @Test func aPayloadOverTheLimitIsRefusedBeforeParsing() {
        let big = [UInt8](repeating: UInt8(ascii: " "), count: 1_048_576)
        let error = refusal("espresense/devices/phone/kitchen", big)
        #expect(error?.reason == .tooLarge)
        #expect(
            error?.message == "espresense/devices/phone/kitchen: the payload has 1048576 bytes; at most 65536 are read")
        #expect(refusal(String(repeating: "a/", count: 2000), "{}")?.reason == .tooLarge)
    }

    @Test func anUnknownTopic() {
        let error = refusal("zigbee2mqtt/lamp", "{}")
        #expect(error?.reason == .unknownTopic)
        #expect(error?.field == nil)
        #expect(refusal("", "")?.reason == .unknownTopic)
    }

    @Test func reasonsAreMetricsLabels() {
        #expect(GatewayPayloadError.Reason.allCases.map(\.rawValue).contains("randomAddress"))
    }

    /// Random bytes and mutated real payloads, on every topic kind: each either reads or throws, never traps.
    @Test func randomInputNeverTraps() {
        var random = SplitMix64(seed: 20_260_521)
        let topics = [
            "espresense/devices/phone/kitchen", "espresense/rooms/kitchen/status", "espresense/rooms/kitchen/telemetry",
            "home/gw/BTtoMQTT/7081940DFBAA", "home/gw/BTtoMQTT", "espresense/devices/iBeacon:x-1-2/k", "x",
        ]
        let samples = [
            #"{"id":"70:81:94:0D:FB:AA","rssi":-64,"mac_type":1}"#,
            #"{"id":"C0:FF:EE:00:00:01","rssi":-71,"manufacturerdata":"\#(TheengsTests.iBeaconData)"}"#,
            #"{"id":"D0:C0:FF:EE:00:02","rssi":-66,"servicedata":"00e7edd1ebeac04e5defa0170123456789ab0000","servicedatauuid":"feaa"}"#,
            #"{"rssi":"-72.50","rssi@1m":-65}"#, #"{"uptime":3600,"adverts":12}"#, "online",
        ]
        var read = 0
        for round in 0..<4_000 {
            let topic = topics[Int(random.next() % UInt64(topics.count))]
            var payload: [UInt8]
            if round % 2 == 0 {
                payload = (0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            } else {
                payload = Array(samples[Int(random.next() % UInt64(samples.count))].utf8)
                for _ in 0..<Int(random.next() % 4) where !payload.isEmpty {
                    payload[Int(random.next() % UInt64(payload.count))] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            if (try? parser.parse(topic: topic, payload: payload)) != nil { read += 1 }
        }
        #expect(read > 0)
    }
}

/// A small seeded generator, so the random rounds are the same on every run.
struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
