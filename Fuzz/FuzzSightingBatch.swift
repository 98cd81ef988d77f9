// libFuzzer entry point for the one-pass readers of JSON bytes. The reader of `POST /v1/sightings` bodies
// (Server/Sources/IndoorServer/HTTP/SightingBatchReader.swift): any bytes give a batch or a refusal, never a crash,
// and what is read is consistent (an index for each sighting, every index once, in order). The reader of gateways'
// payloads (Server/Sources/IndoorGateways/Support/JSONPayloadReader.swift): what it reads, JSONDecoder reads as the
// same value.
// Built by Fuzz/run-sightings.sh (not a SwiftPM target), from the readers' files alone.
import IndoorGateways
import IndoorServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSightingBatch(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let body = UnsafeRawBufferPointer(start: start, count: count)
    do {
        let batch = try SightingBatchReader.read(body)
        precondition(batch.sightings.count == batch.indices.count, "a sighting without its index")
        let indices = (batch.indices + batch.errors.map(\.index)).sorted()
        precondition(indices == Array(0..<batch.count), "items lost or counted twice: \(indices) of \(batch.count)")
        for sighting in batch.sightings { precondition(sighting.problem == nil, "a sighting that should be refused") }
    } catch {
        _ = String(describing: error)
    }
    if let read = JSONPayloadReader.value(body) {
        let bytes = Array(body)
        guard let reference = try? JSONValue.decodedByFoundation(bytes) else {
            preconditionFailure("the payload reader read \(read); JSONDecoder refuses it")
        }
        precondition(read.isSame(as: reference), "the payload reader read \(read); JSONDecoder \(reference)")
    }
    return 0
}
