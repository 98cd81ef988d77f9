import IndoorGateways
import Testing

/// ESPresense 4.x messages, written from the firmware's `BleFingerprint::fill` and `sendTelemetry`.
@Suite("ESPresense messages")
struct ESPresenseTests {
    let parser = GatewayMessageParser()

    func parse(_ topic: String, _ payload: String) throws -> GatewayMessage {
        try parser.parse(topic: topic, payload: Array(payload.utf8))
    }

    @Test func aDeviceMessageWithRSSIAsAStringIsASighting() throws {
        let message = try parse(
            "espresense/devices/apple:1005:9-26/kitchen",
            #"{"mac":"6f5e4d3c2b1a","id":"apple:1005:9-26","rssi@1m":-65,"rssi":"-72.50","rxAdj":0,"#
                + #""rssiVar":"1.25","distance":"2.41","var":"0.12","int":512}"#)
        #expect(
            message
                == .sighting(
                    GatewaySighting(
                        gateway: .espresense, node: "kitchen", device: "apple:1005:9-26", rssiDBm: -72.5,
                        txPowerDBm: -65)))
    }

    @Test func aDeviceMessageWithRSSIAsANumberAndNoReferenceIsASighting() throws {
        let message = try parse("espresense/devices/name:tile-mate/office", #"{"id":"name:tile-mate","rssi":-80.25}"#)
        #expect(
            message
                == .sighting(
                    GatewaySighting(gateway: .espresense, node: "office", device: "name:tile-mate", rssiDBm: -80.25)))
    }

    @Test func anIBeaconIDIsNamedAsIndoorNamesBeacons() throws {
        let message = try parse(
            "espresense/devices/iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-42/hall",
            #"{"id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-42","rssi@1m":-59,"rssi":"-70.00"}"#)
        guard case .sighting(let sighting) = message else {
            Issue.record("not a sighting: \(message)")
            return
        }
        #expect(sighting.device == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/42")
        #expect(sighting.txPower == -59)
    }

    @Test func aBareAddressIDIsWrittenWithColons() throws {
        let message = try parse("espresense/devices/c0ffee000001/hall", #"{"rssi":-70}"#)
        guard case .sighting(let sighting) = message else {
            Issue.record("not a sighting: \(message)")
            return
        }
        #expect(sighting.device == "C0:FF:EE:00:00:01")
    }

    @Test func anIRKIDIsNamedByTheKeyTableAndKeptOtherwise() throws {
        let id = "irk:" + IRKTests.sampleKey
        let resolver = try IRKResolver(keys: ["alice-phone": IRKTests.sampleKeyReversed])
        let named = try GatewayMessageParser(resolver: resolver).parse(
            topic: "espresense/devices/\(id)/kitchen", payload: Array(#"{"rssi":"-60.00"}"#.utf8))
        #expect(
            named
                == .sighting(
                    GatewaySighting(gateway: .espresense, node: "kitchen", device: "alice-phone", rssiDBm: -60)))
        let kept = try parse("espresense/devices/\(id)/kitchen", #"{"rssi":"-60.00"}"#)
        #expect(kept == .sighting(GatewaySighting(gateway: .espresense, node: "kitchen", device: id, rssiDBm: -60)))
    }

    @Test func statusAndTelemetryDescribeTheNode() throws {
        #expect(try parse("espresense/rooms/kitchen/status", "online") == .nodeStatus(node: "kitchen", online: true))
        #expect(try parse("espresense/rooms/kitchen/status", "offline") == .nodeStatus(node: "kitchen", online: false))
        let telemetry = try parse(
            "espresense/rooms/kitchen/telemetry",
            #"{"ip":"192.0.2.7","uptime":3600,"firm":"esp32","rssi":-61,"ver":"v4.0.3","adverts":1520,"#
                + #""seen":88,"reported":40,"freeHeap":81234,"maxHeap":60000,"scanStack":1200}"#)
        #expect(
            telemetry
                == .nodeTelemetry(
                    node: "kitchen",
                    telemetry: GatewayNodeTelemetry(
                        ipAddress: "192.0.2.7", uptimeSeconds: 3600, firmware: "esp32", version: "v4.0.3",
                        wifiRSSIDBm: -61, advertisementCount: 1520, seenCount: 88, reportedCount: 40)))
        let sparse = try parse("espresense/rooms/kitchen/telemetry", #"{"uptime":"soon","ver":7}"#)
        #expect(sparse == .nodeTelemetry(node: "kitchen", telemetry: GatewayNodeTelemetry()))
    }

    @Test func topicsWithoutSightingsAreIgnored() throws {
        for topic in [
            "espresense/devices/irk:abc/kitchen/battery", "espresense/rooms/kitchen/max_distance",
            "espresense/rooms/kitchen/name", "espresense/settings/phone/config", "espresense/devices/phone",
        ] {
            guard case .ignored = try parse(topic, "{}") else {
                Issue.record("\(topic) was not ignored")
                continue
            }
        }
    }

    @Test func aBadStatusIsRefused() {
        #expect(throws: GatewayPayloadError.self) { try parse("espresense/rooms/kitchen/status", "maybe") }
    }

    @Test func aCustomRootIsHonoured() throws {
        let parser = GatewayMessageParser(configuration: GatewayTopicConfiguration(espresenseRoot: "house/ble"))
        let message = try parser.parse(topic: "house/ble/devices/phone/den", payload: Array(#"{"rssi":-50}"#.utf8))
        #expect(message == .sighting(GatewaySighting(gateway: .espresense, node: "den", device: "phone", rssiDBm: -50)))
    }
}
