import CZlib
import Foundation

/// Raw deflate data (RFC 1951, as zip entries hold it) inflated by the system zlib.
enum Inflate {
    /// Why deflate data could not be inflated, in words.
    struct Failure: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The `size` bytes that `compressed` inflates to.
    ///
    /// - Returns: The bytes, or why they cannot be had: corrupt data, data that ends early, or data that inflates to
    ///   another size than `size` (never more than `size` bytes are made).
    static func raw(_ compressed: ArraySlice<UInt8>, size: Int) -> Result<[UInt8], Failure> {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return .failure(Failure("zlib could not start inflating"))
        }
        defer { inflateEnd(&stream) }
        var input = Array(compressed)
        // One byte more than declared, so that data inflating to more is caught.
        var output = [UInt8](repeating: 0, count: size + 1)
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return inflate(&stream, Z_FINISH)
            }
        }
        let made = Int(stream.total_out)
        switch status {
        case Z_STREAM_END where made == size:
            output.removeLast()
            return .success(output)
        case Z_STREAM_END:
            return .failure(Failure("the deflate data inflates to \(made) bytes, not the \(size) its entry declares"))
        case Z_BUF_ERROR where stream.avail_out == 0, Z_OK where stream.avail_out == 0:
            return .failure(Failure("the deflate data inflates to more than the \(size) bytes its entry declares"))
        case Z_BUF_ERROR:
            return .failure(Failure("the deflate data ends early"))
        default:
            let reason = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
            return .failure(Failure("the deflate data is corrupt (\(reason))"))
        }
    }

    /// The CRC-32 of `bytes` (as zip entries declare it).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }
}
