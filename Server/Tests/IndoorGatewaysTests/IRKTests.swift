import IndoorAdvertising
import IndoorGateways
import Testing

/// Identity resolving keys: the specification's sample, both byte orders, and what is never resolved.
@Suite("Identity resolving keys")
struct IRKTests {
    /// The Bluetooth Core specification's sample key (Vol 3 Part H, `ah` sample data), most significant byte first.
    static let sampleKey = "ec0234a357c8ad05341010a60a397d9b"
    /// The same key byte-reversed: the order a macOS keychain shows and Theengs Gateway expects.
    static let sampleKeyReversed = "9b7d390aa610103405adc857a33402ec"
    /// The sample's resolvable private address: prand 708194, hash 0dfbaa.
    static let sampleAddress = "70:81:94:0D:FB:AA"

    @Test func ahReproducesTheSpecificationSample() throws {
        let key = try IdentityResolvingKey(hex: Self.sampleKey)
        #expect(key.ah(prand: 0x70_8194) == 0x0D_FBAA)
        #expect(key.hex == Self.sampleKey)
        #expect(key.reversed.hex == Self.sampleKeyReversed)
        let address = try #require(BluetoothAddress(Self.sampleAddress))
        #expect(key.resolves(address))
        #expect(!key.reversed.resolves(address))
    }

    @Test func theResolverAcceptsTheKeyInEitherByteOrder() throws {
        for written in [
            Self.sampleKey, Self.sampleKeyReversed, "irk:" + Self.sampleKey, " EC0234A357C8AD05341010A60A397D9B ",
        ] {
            let resolver = try IRKResolver(keys: ["phone": written])
            #expect(resolver.resolve(address: Self.sampleAddress) == "phone", "key written \(written)")
            #expect(resolver.resolve(addressBytes: [0x70, 0x81, 0x94, 0x0D, 0xFB, 0xAA]) == "phone")
        }
    }

    @Test func anAddressNoKeyMadeIsNotResolved() throws {
        let resolver = try IRKResolver(keys: ["phone": Self.sampleKey, "watch": "00112233445566778899aabbccddeeff"])
        #expect(resolver.resolve(address: "70:81:94:0D:FB:AB") == nil)
        #expect(resolver.resolve(address: "4A:BC:DE:12:34:56") == nil)
    }

    @Test func addressesThatAreNotResolvablePrivateAreNeverResolvedNorCached() throws {
        let resolver = try IRKResolver(keys: ["phone": Self.sampleKey])
        // Top bits 11 (static), 00 (non-resolvable or public), 10 (reserved): never an RPA.
        for text in ["F0:81:94:0D:FB:AA", "30:81:94:0D:FB:AA", "B0:81:94:0D:FB:AA"] {
            #expect(resolver.resolve(address: text) == nil)
        }
        #expect(resolver.cachedAddressCount == 0)
        #expect(resolver.resolve(address: "not an address") == nil)
        #expect(resolver.resolve(addressBytes: [1, 2, 3]) == nil)
    }

    @Test func theCacheGivesTheSameAnswersAndStaysBounded() throws {
        let resolver = try IRKResolver(keys: ["phone": Self.sampleKey], cacheCapacity: 3)
        #expect(resolver.resolve(address: Self.sampleAddress) == "phone")
        #expect(resolver.resolve(address: "70:81:94:0D:FB:AB") == nil)
        #expect(resolver.cachedAddressCount == 2)
        #expect(resolver.resolve(address: Self.sampleAddress) == "phone")
        #expect(resolver.resolve(address: "70:81:94:0D:FB:AB") == nil)
        #expect(resolver.cachedAddressCount == 2)
        for last in 0..<10 {
            _ = resolver.resolve(BluetoothAddress(rawValue: 0x4000_0000_0000 | UInt64(last)))
            #expect(resolver.cachedAddressCount <= 3)
        }
        #expect(resolver.resolve(address: Self.sampleAddress) == "phone")
    }

    @Test func anESPresenseIRKIDNamesItsDevice() throws {
        let resolver = try IRKResolver(keys: ["phone": Self.sampleKeyReversed])
        #expect(resolver.device(forKey: try IdentityResolvingKey(hex: "irk:" + Self.sampleKey)) == "phone")
        #expect(resolver.device(forKey: try IdentityResolvingKey(hex: "00112233445566778899aabbccddeeff")) == nil)
    }

    @Test func badKeysAreRefusedNamingTheDevice() {
        #expect(throws: IdentityResolvingKeyError.self) { try IdentityResolvingKey(hex: "ec0234") }
        do {
            _ = try IRKResolver(keys: ["phone": "zz0234a357c8ad05341010a60a397d9b"])
            Issue.record("a non-hex key was accepted")
        } catch {
            #expect(error.device == "phone")
            #expect(error.message == "IRK of device 'phone' has a character that is not a hex digit at offset 0")
        }
        do {
            _ = try IRKResolver(keys: ["watch": Self.sampleKey + "0"])
            Issue.record("a 33-digit key was accepted")
        } catch {
            #expect(error.message == "IRK of device 'watch' has 33 characters; an IRK is 32 hex digits (16 bytes)")
        }
        #expect(throws: IdentityResolvingKeyError.self) { try IdentityResolvingKey(bytes: [1, 2, 3]) }
        #expect(throws: IdentityResolvingKeyError.self) { try IRKResolver(keys: ["": Self.sampleKey]) }
    }
}
