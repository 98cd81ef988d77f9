import CZlib

/// Bytes compressed as raw deflate data (RFC 1951, as zip entries hold it) by the system zlib.
enum Deflate {
    /// `bytes` as raw deflate data at zlib's best compression; `nil` when zlib fails (it does not for bytes in
    /// memory, but its status is checked).
    static func raw(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 16)
        let made = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int? in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                guard CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END else { return nil }
                return Int(stream.total_out)
            }
        }
        return made.map { Array(output.prefix($0)) }
    }
}
