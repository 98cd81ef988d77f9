import Foundation

/// Reads a btsnoop capture file in fixed-size chunks and decodes its beacon advertisements.
///
/// Memory stays constant whatever the file size: one chunk plus at most two records are held at a time.
public enum BtsnoopReader {
    /// Bytes read from the file at a time.
    public static let defaultChunkSize = 1 << 20

    /// Decodes the capture at `url`, calling `onAdvertisement` for each beacon advertisement in file order and
    /// `onProblem` for each corrupt or truncated record (decoding goes on after it).
    ///
    /// - Returns: The decoder at the end: its ``CaptureDecoder/statistics``, datalink and adapter names.
    /// - Throws: ``AdvertisingError`` when the file is not a btsnoop capture; file-system errors when it cannot
    ///   be read.
    @discardableResult
    public static func decode(
        fileAt url: URL, chunkSize: Int = defaultChunkSize,
        onAdvertisement: (BeaconAdvertisement) -> Void, onProblem: (AdvertisingError) -> Void
    ) throws -> CaptureDecoder {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var decoder = CaptureDecoder()
        var buffer: [UInt8] = []
        buffer.reserveCapacity(chunkSize + 2 * (Btsnoop.maxRecordLength + Btsnoop.recordHeaderLength))
        var isEnd = false
        while !isEnd {
            let data = try handle.read(upToCount: max(chunkSize, 4096)) ?? Data()
            if data.isEmpty { isEnd = true } else { buffer.append(contentsOf: data) }
            let used = try buffer.withUnsafeBytes { bytes in
                try decoder.decode(bytes, isEnd: isEnd, onAdvertisement: onAdvertisement, onProblem: onProblem)
            }
            buffer.removeFirst(used)
        }
        return decoder
    }
}
