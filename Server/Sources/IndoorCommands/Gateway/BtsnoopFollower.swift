import Foundation
import IndoorAdvertising

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a btsnoop stream as it is written, in fixed-size chunks, and hands its bytes to a ``GatewayDecoder``.
///
/// A regular file is followed like `tail -f`: at its end the follower waits for more bytes (polling every
/// `pollInterval`) until told to stop; when the file shrinks (btmon started again on it), it is read again from
/// its start. A FIFO or standard input (`-`) is read until its end of file. Memory stays bounded: at most one
/// chunk plus one record's bytes are held. Blocking: run it on a thread of its own, not on the async pool.
struct BtsnoopFollower {
    /// The input path, or `-` for standard input.
    var path: String
    /// Follow a regular file at its end (false: stop at its end, as for a FIFO).
    var follow: Bool
    /// How long to wait at the end of a followed file before looking again.
    var pollInterval: Duration = .milliseconds(200)
    /// The most bytes read at once.
    var chunkBytes = 64 * 1024

    /// Whether the input is a regular file (followed), rather than a FIFO, a device or standard input.
    var isRegularFile: Bool {
        guard path != "-" else { return false }
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Opens the input, or says in one line why it cannot be read.
    func openInput() throws(GatewayFailure) -> Int32 {
        if path == "-" { return STDIN_FILENO }
        try checkPath()
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw GatewayFailure("\(path): cannot be read: \(String(cString: strerror(errno)))")
        }
        return descriptor
    }

    /// Checks that the input exists and is readable, without opening it (opening a FIFO waits for its writer).
    ///
    /// - Throws: ``GatewayFailure`` naming the input.
    func checkInput() throws(GatewayFailure) {
        guard path != "-" else { return }
        try checkPath()
        guard access(path, R_OK) == 0 else { throw GatewayFailure("\(path): not readable") }
    }

    private func checkPath() throws(GatewayFailure) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw GatewayFailure("\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw GatewayFailure("\(path): a folder, not a btsnoop stream") }
    }

    /// Reads until the end of a non-followed input or until `shouldStop` says so.
    ///
    /// - Parameters:
    ///   - decoder: decodes the bytes; its sightings go to `onSighting`.
    ///   - onProblem: one line per corrupt record.
    ///   - onProgress: the decoder's counts, after each chunk.
    /// - Throws: ``GatewayFailure`` naming the input when it cannot be read or is not a btsnoop stream.
    func run(
        decoder: inout GatewayDecoder, shouldStop: () -> Bool, onSighting: (ForwardedSighting) -> Void,
        onProblem: (String) -> Void, onProgress: (GatewayDecoder.Counts) -> Void
    ) throws(GatewayFailure) {
        defer { onProgress(decoder.counts) }
        let name = path == "-" ? "standard input" : path
        let following = follow && isRegularFile
        let descriptor = try openInput()
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        var position: Int64 = 0
        let fresh = decoder
        while !shouldStop() {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, chunkBytes) }
            if count < 0 {
                if errno == EINTR { continue }
                throw GatewayFailure("\(name): cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 {
                if !following { break }
                var status = stat()
                if fstat(descriptor, &status) == 0, Int64(status.st_size) < position {
                    onProblem("\(name): the file got shorter; reading it again from its start")
                    lseek(descriptor, 0, SEEK_SET)
                    position = 0
                    pending.removeAll()
                    decoder = fresh
                    continue
                }
                Thread.sleep(forTimeInterval: Double(pollInterval.components.attoseconds) / 1e18)
                continue
            }
            position += Int64(count)
            pending.append(contentsOf: chunk[0..<count])
            try feed(&pending, to: &decoder, isEnd: false, name: name, onSighting: onSighting, onProblem: onProblem)
            onProgress(decoder.counts)
        }
        if !following || !decoder.hasHeader {
            try feed(
                &pending, to: &decoder, isEnd: !following || pending.count > 0, name: name, onSighting: onSighting,
                onProblem: onProblem)
        }
    }

    private func feed(
        _ pending: inout [UInt8], to decoder: inout GatewayDecoder, isEnd: Bool, name: String,
        onSighting: (ForwardedSighting) -> Void, onProblem: (String) -> Void
    ) throws(GatewayFailure) {
        do {
            let used = try pending.withUnsafeBytes { buffer in
                try decoder.decode(
                    buffer, isEnd: isEnd, onSighting: onSighting, onProblem: { onProblem("\(name): \($0)") })
            }
            pending.removeFirst(used)
        } catch let error as AdvertisingError {
            throw GatewayFailure("\(name): \(error.message)")
        } catch {
            throw GatewayFailure("\(name): \(error)")
        }
    }
}
