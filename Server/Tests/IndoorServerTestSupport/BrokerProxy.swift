import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP proxy on a free loopback port in front of a broker, to make it behave as other brokers do: slow to accept a
/// connection (its CONNACK held back), or refusing MQTT 5 (as a broker that only speaks 3.1.1 does).
///
/// Each connection is forwarded byte for byte on two threads; it ends when either side closes.
package final class BrokerProxy: Sendable {
    /// What the proxy changes.
    package enum Mode: Sendable {
        /// Holds the broker's first bytes to each client (its CONNACK) back this long, in milliseconds.
        case delayConnAck(milliseconds: Int)
        /// Answers an MQTT 5 CONNECT itself instead of passing it on: with a 3.1.1 CONNACK "unacceptable protocol
        /// version" when `answer` is true, else by closing the connection without any CONNACK. A 3.1.1 CONNECT is
        /// passed on.
        case refuseMQTT5(answer: Bool)
    }

    /// The proxy's port on 127.0.0.1.
    package let port: Int
    private let listener: Int32
    private let sockets = Mutex<Set<Int32>>([])
    /// Connections taken so far, and those of them that asked for MQTT 5.
    private let counts = Mutex<(connections: Int, mqtt5: Int)>((0, 0))

    /// Starts a proxy to the broker on `brokerPort` (127.0.0.1).
    package init(to brokerPort: Int, mode: Mode) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BrokerError("socket() failed: \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Broker.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ready else {
            close(fd)
            throw BrokerError("the proxy could not listen: \(errno)")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop(brokerPort: brokerPort, mode: mode) }
    }

    /// Connections the proxy took, and how many of them sent an MQTT 5 CONNECT.
    package var connections: (all: Int, mqtt5: Int) { counts.withLock { ($0.connections, $0.mqtt5) } }

    /// Stops listening and ends every connection. Call it: the proxy's threads keep it alive until then.
    package func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        for fd in sockets.withLock({ $0 }) { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop(brokerPort: Int, mode: Mode) {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                close(listener)
                return
            }
            counts.withLock { $0.connections += 1 }
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Broker.loopback(port: brokerPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard upstream >= 0, connected == 0 else {
                close(client)
                if upstream >= 0 { close(upstream) }
                continue
            }
            sockets.withLock {
                $0.insert(client)
                $0.insert(upstream)
            }
            Thread.detachNewThread { [self] in
                forward(from: client, to: upstream, inspect: mode)
            }
            Thread.detachNewThread { [self] in
                if case .delayConnAck(let milliseconds) = mode {
                    forward(from: upstream, to: client, firstDelayMilliseconds: milliseconds)
                } else {
                    forward(from: upstream, to: client, firstDelayMilliseconds: 0)
                }
            }
        }
    }

    /// Client to broker; in `refuseMQTT5` mode the first chunk (the CONNECT) is looked at first.
    private func forward(from source: Int32, to destination: Int32, inspect mode: Mode) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var first = true
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else { break }
            if first {
                first = false
                if let level = Self.protocolLevel(buffer[0..<count]), level == 5 {
                    counts.withLock { $0.mqtt5 += 1 }
                    if case .refuseMQTT5(let answer) = mode {
                        // A 3.1.1 CONNACK: return code 1, unacceptable protocol version.
                        let refusal: [UInt8] = [0x20, 0x02, 0x00, 0x01]
                        if answer { _ = Self.writeAll(source, refusal[...]) }
                        break
                    }
                }
            }
            guard Self.writeAll(destination, buffer[0..<count]) else { break }
        }
        end(source, destination)
    }

    /// Broker to client, the first chunk held back `firstDelayMilliseconds`.
    private func forward(from source: Int32, to destination: Int32, firstDelayMilliseconds: Int) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var first = true
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else { break }
            if first && firstDelayMilliseconds > 0 { usleep(UInt32(firstDelayMilliseconds) * 1000) }
            first = false
            guard Self.writeAll(destination, buffer[0..<count]) else { break }
        }
        end(source, destination)
    }

    private func end(_ one: Int32, _ other: Int32) {
        let owned = sockets.withLock { sockets in
            // The first of the two threads to end closes both.
            guard sockets.contains(one) || sockets.contains(other) else { return false }
            sockets.remove(one)
            sockets.remove(other)
            return true
        }
        shutdown(one, Int32(SHUT_RDWR))
        shutdown(other, Int32(SHUT_RDWR))
        if owned {
            // Give the other thread time to see the shutdown before the descriptors can be reused.
            usleep(200_000)
            close(one)
            close(other)
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// The protocol level of a CONNECT at the front of `bytes` (4: 3.1.1, 5: MQTT 5), when it is one.
    private static func protocolLevel(_ bytes: ArraySlice<UInt8>) -> UInt8? {
        guard let first = bytes.first, first >> 4 == 1 else { return nil }
        var index = bytes.startIndex + 1
        while index < bytes.endIndex, bytes[index] & 0x80 != 0 { index += 1 }
        // The remaining length, then "\0\4MQTT", then the level.
        let level = index + 1 + 6
        return level < bytes.endIndex ? bytes[level] : nil
    }
}
