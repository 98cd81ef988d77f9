// libFuzzer entry point for the advertising decoders: AD structures and beacon frames, HCI advertising report
// events (with extended reassembly), and btsnoop captures fed whole and in pieces.
// Built by Fuzz/run.sh (not a SwiftPM target); see docs/ADVERTISING.md.
import IndoorAdvertising

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdvertising(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let input = Array(UnsafeRawBufferPointer(start: start, count: count))
    let mode = input[0] % 4
    let body = Array(input.dropFirst())
    switch mode {
    case 0:
        _ = try? BeaconFrame.decode(advertisingData: body)
        _ = try? ADStructure.parse(body)
    case 1:
        // Several events through one assembler, split at 0xFF bytes, so fragments meet.
        var assembler = ExtendedAdvertisingAssembler()
        for event in body.split(separator: 0xFF, omittingEmptySubsequences: false) {
            var bytes = Array(event)
            if bytes.count >= 3 { bytes[0] = 0x3E }
            for report in HCIEvent.advertisingReports(event: bytes, assembler: &assembler).reports {
                _ = try? BeaconFrame.decode(advertisingData: report.data)
            }
        }
    case 2:
        decodeCapture(body, pieceSize: nil)
    default:
        // A valid file header (datalink from the first byte), so the fuzzer reaches records quickly,
        // fed in pieces whose size also comes from the input.
        guard let first = body.first else { return 0 }
        let datalink: [UInt8] = [[0x03, 0xE9], [0x03, 0xEA], [0x07, 0xD1]][Int(first % 3)]
        let header: [UInt8] = Array("btsnoop\0".utf8) + [0, 0, 0, 1, 0, 0] + datalink
        decodeCapture(header + body.dropFirst(), pieceSize: Int(first >> 2) + 1)
    }
    return 0
}

func decodeCapture(_ capture: [UInt8], pieceSize: Int?) {
    var decoder = CaptureDecoder()
    var pending: [UInt8] = []
    var position = 0
    let size = pieceSize ?? capture.count
    while true {
        let end = min(capture.count, position + size)
        pending += capture[min(position, capture.count)..<end]
        position = end
        let isEnd = position >= capture.count
        let used: Int
        do {
            used = try pending.withUnsafeBytes { buffer in
                try decoder.decode(
                    buffer, isEnd: isEnd, onAdvertisement: { ad in _ = ad.identity?.text },
                    onProblem: { problem in _ = problem.description })
            }
        } catch {
            return
        }
        precondition(used <= pending.count, "decoder used more bytes than it was given")
        pending.removeFirst(used)
        if isEnd {
            precondition(pending.isEmpty, "decoder left bytes at the end of the capture")
            return
        }
    }
}
