import IndoorGateways
import Testing

/// Theengs Gateway and OpenMQTTGateway `BTtoMQTT` messages, written from their sources and documentation.
@Suite("Theengs Gateway and OpenMQTTGateway messages")
struct TheengsTests {
    static let iBeaconData = "4c000215e2c56db5dffb48d2b060d0f5a71096e00001002ac5"
    static let iBeaconDevice = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/42"

    let parser = GatewayMessageParser()

    func sighting(_ topic: String, _ payload: String, parser: GatewayMessageParser? = nil) throws -> GatewaySighting? {
        let message = try (parser ?? self.parser).parse(topic: topic, payload: Array(payload.utf8))
        guard case .sighting(let sighting) = message else {
            Issue.record("not a sighting: \(message)")
            return nil
        }
        return sighting
    }

    @Test func anIBeaconWithRawManufacturerDataIsNamedByItsIdentity() throws {
        let found = try sighting(
            "home/TheengsGateway/BTtoMQTT/C0FFEE000001",
            #"{"id":"C0:FF:EE:00:00:01","rssi":-71,"manufacturerdata":"\#(Self.iBeaconData)","#
                + #""brand":"GENERIC","model":"iBeacon","model_id":"IBEACON","mfid":"4c00","#
                + #""uuid":"e2c56db5dffb48d2b060d0f5a71096e0","major":1,"minor":42,"txpower":-59}"#)
        #expect(
            found
                == GatewaySighting(
                    gateway: .theengs, node: "TheengsGateway", device: Self.iBeaconDevice, rssiDBm: -71, txPowerDBm: -59
                ))
    }

    @Test func decodedIBeaconFieldsAloneNameTheBeacon() throws {
        let found = try sighting(
            "home/TheengsGateway/BTtoMQTT/C0FFEE000001",
            #"{"id":"C0:FF:EE:00:00:01","rssi":-71,"brand":"GENERIC","model":"iBeacon","model_id":"IBEACON","#
                + #""mfid":"4c00","uuid":"e2c56db5dffb48d2b060d0f5a71096e0","major":1,"minor":42,"txpower":-59}"#)
        #expect(found?.device == Self.iBeaconDevice)
        #expect(found?.txPower == -59)
    }

    @Test func openMQTTGatewayWithAPublicAddressNamesTheAddress() throws {
        let found = try sighting(
            "home/OMG_ESP32_BLE/BTtoMQTT/4C65A8DD7AE1",
            #"{"id":"4c:65:a8:dd:7a:e1","mac_type":0,"adv_type":0,"name":"LYWSD03MMC","rssi":-82,"#
                + #""servicedata":"30585b05a8e17adda8654c0d","servicedatauuid":"0xfe95"}"#)
        #expect(
            found
                == GatewaySighting(gateway: .theengs, node: "OMG_ESP32_BLE", device: "4C:65:A8:DD:7A:E1", rssiDBm: -82))
    }

    @Test func anEddystoneUIDInServiceDataIsNamedAsIndoorNamesIt() throws {
        let frame = "00e7" + "edd1ebeac04e5defa017" + "0123456789ab" + "0000"
        let found = try sighting(
            "home/gw1/BTtoMQTT/D0C0FFEE0002",
            #"{"id":"D0:C0:FF:EE:00:02","rssi":-66,"servicedata":"\#(frame)","servicedatauuid":"feaa"}"#)
        #expect(found?.device == "eddystone-uid:edd1ebeac04e5defa017:0123456789ab")
        #expect(found?.txPower == -66)
        #expect(found?.node == "gw1")
    }

    @Test func aResolvablePrivateAddressIsNamedByItsIRK() throws {
        let resolver = try IRKResolver(keys: ["alice-phone": IRKTests.sampleKeyReversed])
        let parser = GatewayMessageParser(resolver: resolver)
        for extra in ["", #","mac_type":1"#] {
            let found = try sighting(
                "home/gw1/BTtoMQTT/7081940DFBAA", #"{"id":"70:81:94:0D:FB:AA","rssi":-64\#(extra)}"#, parser: parser)
            #expect(found?.device == "alice-phone")
        }
    }

    @Test func privateAddressesThatCannotBeFollowedAreDropped() throws {
        let resolver = try IRKResolver(keys: ["alice-phone": IRKTests.sampleKey])
        let withKeys = GatewayMessageParser(resolver: resolver)
        let cases: [(GatewayMessageParser, String)] = [
            (parser, #"{"id":"3A:11:22:33:44:55","rssi":-70,"mac_type":1}"#),  // non-resolvable
            (parser, #"{"id":"4A:11:22:33:44:55","rssi":-70,"mac_type":1}"#),  // RPA, no keys
            (withKeys, #"{"id":"4A:11:22:33:44:55","rssi":-70}"#),  // RPA-looking, keys configured, none matches
        ]
        for (parser, payload) in cases {
            #expect(throws: GatewayPayloadError.self) {
                try parser.parse(topic: "home/gw1/BTtoMQTT/x", payload: Array(payload.utf8))
            }
            do {
                _ = try parser.parse(topic: "home/gw1/BTtoMQTT/x", payload: Array(payload.utf8))
            } catch {
                #expect(error.reason == .randomAddress)
                #expect(error.field == "id")
            }
        }
    }

    @Test func addressesThatCanBeFollowedAreKept() throws {
        // A static random address, and addresses of unknown type when no keys are configured.
        #expect(
            try sighting("home/gw1/BTtoMQTT/x", #"{"id":"F1:22:33:44:55:66","rssi":-70,"mac_type":1}"#)?.device
                == "F1:22:33:44:55:66")
        #expect(
            try sighting("home/gw1/BTtoMQTT/x", #"{"id":"4a:11:22:33:44:55","rssi":-70}"#)?.device
                == "4A:11:22:33:44:55")
        #expect(
            try sighting("home/gw1/BTtoMQTT/x", #"{"id":"3A:11:22:33:44:55","rssi":-70}"#)?.device
                == "3A:11:22:33:44:55")
    }

    @Test func anIDThatIsNotAnAddressIsKept() throws {
        let found = try sighting("home/mac/BTtoMQTT/x", #"{"id":"5A1C2B3D-0000-4000-8000-00805F9B34FB","rssi":-70}"#)
        #expect(found?.device == "5A1C2B3D-0000-4000-8000-00805F9B34FB")
    }

    @Test func otherTopicsUnderThePrefixAreIgnoredAndOtherPrefixesRefusedOrTaken() throws {
        guard case .ignored = try parser.parse(topic: "home/OMG_ESP32_BLE/SYStoMQTT", payload: Array("{}".utf8)) else {
            Issue.record("SYStoMQTT was not ignored")
            return
        }
        #expect(throws: GatewayPayloadError.self) {
            try parser.parse(topic: "office/gw1/BTtoMQTT/AABB", payload: Array(#"{"id":"x","rssi":-60}"#.utf8))
        }
        let anyPrefix = GatewayMessageParser(configuration: GatewayTopicConfiguration(theengsPrefixes: []))
        let found = try sighting("office/floor1/gw1/BTtoMQTT/AABB", #"{"id":"x","rssi":-60}"#, parser: anyPrefix)
        #expect(found?.node == "gw1")
        let noAddressSegment = try sighting("home/gw2/BTtoMQTT", #"{"id":"x","rssi":-60}"#)
        #expect(noAddressSegment?.node == "gw2")
    }
}
