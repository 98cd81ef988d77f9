import Foundation
import IndoorModel
import Testing

@testable import IndoorAdvertising

func hex(_ text: String) -> [UInt8] { bytes(hex: text) ?? [] }

@Suite("Beacon frames")
struct FrameTests {
    // Published example (e.g. the "BlueCharmBeacons" iBeacon used in many tutorials).
    @Test func iBeaconPublishedVector() throws {
        let data = hex("4c000215426c7565436861726d426561636f6e730efe1355c5")
        let frame = try #require(IBeacon(manufacturerData: data))
        #expect(frame.id.uuid == UUID(uuidString: "426c7565-4368-6172-6d42-6561636f6e73"))
        #expect(frame.id.major == 3838)
        #expect(frame.id.minor == 4949)
        #expect(frame.measuredPower == -59)
        #expect(frame.manufacturerData == data)
    }

    @Test func iBeaconInAdvertisingData() throws {
        let ad = hex("0201061aff4c000215426c7565436861726d426561636f6e730efe1355c5")
        let frame = try #require(try BeaconFrame.decode(advertisingData: ad))
        #expect(frame.kind == "ibeacon")
        #expect(frame.identity == .beacon(try BeaconID(parsing: "426C7565-4368-6172-6D42-6561636F6E73/3838/4949")))
        #expect(frame.powerAtOneMeter == -59)
    }

    @Test(arguments: [
        "4c000215426c7565436861726d426561636f6e730efe13",  // 23 bytes: too short
        "4c000215426c7565436861726d426561636f6e730efe1355c500",  // 26 bytes: too long
        "4c001005031c2e9b1d",  // Apple "nearby info", not an iBeacon
        "4c000c0e00a1b2c3d4e5f60718293a4b5c",  // Apple handoff
        "4d000215426c7565436861726d426561636f6e730efe1355c5",  // another company
    ])
    func notIBeacons(text: String) throws {
        #expect(IBeacon(manufacturerData: hex(text)) == nil)
        let ad = try ADStructure.encode([ADStructure(type: 0xFF, data: hex(text))])
        #expect(try BeaconFrame.decode(advertisingData: ad) == nil)
    }

    @Test func iBeaconRoundTrip() throws {
        let id = try BeaconID(parsing: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/42")
        let beacon = IBeacon(id: id, measuredPowerDBm: -65)
        #expect(beacon.advertisingData.count == 30)
        #expect(try BeaconFrame.decode(advertisingData: beacon.advertisingData) == .iBeacon(beacon))
    }

    @Test func altBeaconRoundTripAndLayout() throws {
        let beacon = AltBeacon(
            companyID: 0x0118, id1: try #require(UUID(uuidString: "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6")),
            id2: 1, id3: 2, referenceRSSIDBm: -59, reserved: 0x99)
        let data = beacon.manufacturerData
        #expect(data == hex("1801beac2f234454cf6d4a0fadf2f4911ba9ffa600010002c599"))
        #expect(beacon.advertisingData.count == 31)
        #expect(try BeaconFrame.decode(advertisingData: beacon.advertisingData) == .altBeacon(beacon))
        #expect(BeaconFrame.altBeacon(beacon).identity == .beacon(beacon.beaconID))
        #expect(BeaconFrame.altBeacon(beacon).powerAtOneMeter == -59)
    }

    @Test func altBeaconWithAppleCompanyIsStillAltBeacon() {
        let data = hex("4c00beac2f234454cf6d4a0fadf2f4911ba9ffa600010002c500")
        #expect(AltBeacon(manufacturerData: data)?.companyID == 0x004C)
    }

    // Eddystone-UID, per the specification: frame 0x00, tx at 0 m, 10-byte namespace, 6-byte instance, RFU.
    // Namespace 8b0ca750095477cb3e77 is the specification's "elided UUID" example; 0xEE is −18 dBm.
    @Test func eddystoneUIDSpecLayout() throws {
        let ad = hex("0201060303aafe1716aafe00ee8b0ca750095477cb3e77000000000001 0000")
        let frame = try #require(try BeaconFrame.decode(advertisingData: ad))
        guard case .eddystoneUID(let uid) = frame else {
            Issue.record("expected UID, got \(frame)")
            return
        }
        #expect(uid.namespace.hex == "8b0ca750095477cb3e77")
        #expect(uid.instance == 1)
        #expect(uid.txPowerAtZeroMeters == -18)
        #expect(uid.powerAtOneMeter == -59)
        #expect(frame.identity == .node("eddystone-uid:8b0ca750095477cb3e77:000000000001"))
        #expect(uid.advertisingData == ad)
        // Older beacons omit the two RFU bytes (service data length 0x15).
        let short = hex("0201060303aafe1516aafe00128b0ca750095477cb3e77000000000001")
        guard case .eddystoneUID(let old) = try BeaconFrame.decode(advertisingData: short) else {
            Issue.record("expected UID")
            return
        }
        #expect(old.txPowerAtZeroMeters == 18)
    }

    @Test func eddystoneUIDRoundTrip() throws {
        let uid = EddystoneUID(
            namespace: try #require(EddystoneUID.Namespace(hex: "edd1ebeac04e5defa017")), instance: 0x0BDB_8753_9B67,
            txPowerAtZeroMetersDBm: -20)
        #expect(uid.advertisingData.count == 31)
        #expect(try BeaconFrame.decode(advertisingData: uid.advertisingData) == .eddystoneUID(uid))
        #expect(uid.instanceHex == "0bdb87539b67")
    }

    // The specification's example URL https://goo.gl/Aq18zF: scheme 0x03, then the text.
    @Test(arguments: [
        ("10ee03" + "676f6f2e676c2f41713138 7a46", "https://goo.gl/Aq18zF"),
        ("100000" + "676f6f676c6507", "http://www.google.com"),
        ("100001" + "6578616d706c6500", "https://www.example.com/"),
        ("10ee02" + "61" + "0d" + "2f78", "http://a.gov/x"),
        ("10000208" + "0e", "http://.org%0E"),
    ])
    func eddystoneURL(frameHex: String, url: String) throws {
        let frame = try #require(EddystoneURL(frame: hex(frameHex)))
        #expect(frame.url == url)
    }

    @Test(arguments: ["https://goo.gl/Aq18zF", "http://www.example.com/", "https://a.info/b.net", "http://x.gov"])
    func eddystoneURLRoundTrip(url: String) throws {
        let frame = try EddystoneURL(url: url, txPowerAtZeroMetersDBm: -18)
        #expect(frame.url == url)
        #expect(try BeaconFrame.decode(advertisingData: frame.advertisingData) == .eddystoneURL(frame))
    }

    @Test func eddystoneURLEncoding() throws {
        let frame = try EddystoneURL(url: "https://www.example.com/", txPowerAtZeroMetersDBm: -18)
        #expect(frame.frame == hex("10ee01 6578616d706c65 00"))
        #expect(throws: AdvertisingError.self) { try EddystoneURL(url: "ftp://x", txPowerAtZeroMetersDBm: 0) }
        #expect(throws: AdvertisingError.self) {
            try EddystoneURL(url: "https://abcdefghijklmnopqrstuvwxyz", txPowerAtZeroMetersDBm: 0)
        }
        #expect(throws: AdvertisingError.self) { try EddystoneURL(url: "https://a b", txPowerAtZeroMetersDBm: 0) }
        #expect(EddystoneURL(frame: hex("1000 04") + [UInt8](repeating: 0x61, count: 18)) == nil)  // 18 bytes: too long
    }

    // TLM per the specification: version 0, battery mV, temperature 8.8, ADV_CNT, SEC_CNT (0.1 s), big-endian.
    @Test func eddystoneTLM() throws {
        let frame = try #require(EddystoneTLM(frame: hex("2000 0bb8 1980 000003e8 00002710")))
        #expect(frame.batteryMillivolts == 3000)
        #expect(frame.temperatureCelsius == 25.5)
        #expect(frame.advertisementCount == 1000)
        #expect(frame.uptimeSeconds == 1000)
        let negative = try #require(EddystoneTLM(frame: hex("2000 0000 ff80 00000000 00000000")))
        #expect(negative.temperatureCelsius == -0.5)
        let unsupported = try #require(EddystoneTLM(frame: hex("2000 0000 8000 00000000 00000000")))
        #expect(unsupported.temperatureCelsius == nil)
        #expect(EddystoneTLM(frame: hex("2001 0000 8000 00000000 00000000")) == nil)  // encrypted TLM
        #expect(try BeaconFrame.decode(advertisingData: frame.advertisingData) == .eddystoneTLM(frame))
        #expect(BeaconFrame.eddystoneTLM(frame).identity == nil)
    }

    @Test func eddystoneEID() throws {
        let frame = try #require(EddystoneEID(frame: hex("30ee 0102030405060708")))
        #expect(frame.eid == 0x0102_0304_0506_0708)
        #expect(frame.powerAtOneMeter == -59)
        #expect(BeaconFrame.eddystoneEID(frame).identity == .node("eddystone-eid:0102030405060708"))
        #expect(try BeaconFrame.decode(advertisingData: frame.advertisingData) == .eddystoneEID(frame))
    }

    @Test func adStructures() throws {
        let structures = try ADStructure.parse(hex("020106 03ff0102 00 ffffff"))
        #expect(structures == [ADStructure(type: 1, data: [6]), ADStructure(type: 0xFF, data: [1, 2])])
        #expect(try ADStructure.parse([]) == [])
    }

    @Test func adStructureOverrunIsAnErrorForTheAdvertisement() {
        // A good iBeacon followed by a structure claiming 9 bytes with only 2 present.
        let ad = hex("0201061aff4c000215426c7565436861726d426561636f6e730efe1355c5 09ff0102")
        #expect(throws: AdvertisingError.self) { try BeaconFrame.decode(advertisingData: ad) }
        do {
            _ = try ADStructure.parse(hex("05ff01"))
            Issue.record("expected an error")
        } catch let error as AdvertisingError {
            #expect(error.code == .malformedAdvertisingData)
            #expect(error.message.contains("length 5"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func bluetoothAddress() throws {
        let address = try #require(BluetoothAddress("c0:ff:ee:00:00:01"))
        #expect(address.text == "C0:FF:EE:00:00:01")
        #expect(address.littleEndianBytes == [0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0])
        #expect(BluetoothAddress("C0:FF:EE:00:00") == nil)
        #expect(BluetoothAddress("C0:FF:EE:00:00:GG") == nil)
    }
}
