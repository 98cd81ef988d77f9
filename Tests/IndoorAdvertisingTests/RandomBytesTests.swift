import Foundation
import IndoorModel
import Testing

@testable import IndoorAdvertising

@Suite("Random bytes never crash a decoder")
struct RandomBytesTests {
    @Test func advertisingDataAndEvents() {
        var generator = SplitMix64(seed: 42)
        var assembler = ExtendedAdvertisingAssembler()
        for _ in 0..<3000 {
            let length = Int.random(in: 0...80, using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? BeaconFrame.decode(advertisingData: bytes)
            _ = try? ADStructure.parse(bytes)
            if bytes.count >= 3 {
                bytes[0] = 0x3E
                bytes[2] = Bool.random(using: &generator) ? 0x02 : 0x0D
            }
            _ = HCIEvent.advertisingReports(event: bytes, assembler: &assembler)
        }
    }

    @Test func mutatedCaptures() throws {
        var generator = SplitMix64(seed: 7)
        let capture = try BtsnoopTests.capture(.linuxMonitor, count: 20)
        let h4 = try BtsnoopTests.capture(.hciUART, count: 20)
        var decoded = 0
        for round in 0..<300 {
            var bytes = round.isMultiple(of: 2) ? capture : h4
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let position = Int.random(in: 16..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[position] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.remove(at: position)
                default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: position)
                }
            }
            if Bool.random(using: &generator) { bytes.removeLast(Int.random(in: 0..<100, using: &generator)) }
            _ = try CaptureDecoder.decode(capture: bytes, onAdvertisement: { _ in decoded += 1 }, onProblem: { _ in })
        }
        // Most records survive a handful of damaged bytes.
        #expect(decoded > 300 * 10)
    }
}
