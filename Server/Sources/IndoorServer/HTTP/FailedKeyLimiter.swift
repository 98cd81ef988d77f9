import Foundation
import Synchronization

/// Slows down guessing keys: after ``freeFailures`` refused keys from one client address, that address is answered
/// 429 on every route that needs a key for a time that doubles with each further failure (``firstSeconds``, then twice
/// that, four times, … at most ``maximumSeconds``). An accepted key clears the address's count; so does ``forgetSeconds`` without a failure.
///
/// It remembers at most ``capacity`` addresses: when full, those not blocked now are forgotten first, then all.
public final class FailedKeyLimiter: Sendable {
    /// Failures an address may have before it is blocked.
    public static let freeFailures = 5
    /// The first block, seconds.
    public static let firstSeconds: Double = 5
    /// The longest block, seconds.
    public static let maximumSeconds: Double = 300
    /// Seconds after its last failure when an address's count is forgotten.
    public static let forgetSeconds: Double = 900
    /// The most addresses remembered.
    public static let capacity = 10_000

    private struct Failures {
        var count: Int
        var last: Double
        var blockedUntil: Double
    }

    private let table = Mutex<[String: Failures]>([:])
    private let clock: @Sendable () -> Double

    /// A limiter remembering no address.
    /// - Parameter clock: The time now, Unix seconds, where a call gives none (the system's clock by default).
    public init(clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.clock = clock
    }

    /// Seconds `address` must wait before trying a key again at `now` (Unix seconds, the ``init(clock:)`` clock's
    /// when `nil`); `nil` when it may try now.
    public func wait(for address: String, now: Double? = nil) -> Int? {
        let now = now ?? clock()
        return table.withLock { table in
            guard let failures = table[address], failures.blockedUntil > now else { return nil }
            return max(1, Int((failures.blockedUntil - now).rounded(.up)))
        }
    }

    /// Counts a refused key from `address` at `now` (Unix seconds, the ``init(clock:)`` clock's when `nil`).
    public func failed(_ address: String, now: Double? = nil) {
        let now = now ?? clock()
        table.withLock { table in
            var failures = table[address] ?? Failures(count: 0, last: now, blockedUntil: 0)
            if now - failures.last > Self.forgetSeconds { failures = Failures(count: 0, last: now, blockedUntil: 0) }
            failures.count += 1
            failures.last = now
            if failures.count >= Self.freeFailures {
                let exponent = Double(min(failures.count - Self.freeFailures, 20))
                failures.blockedUntil = now + min(Self.firstSeconds * pow(2, exponent), Self.maximumSeconds)
            }
            if table[address] == nil && table.count >= Self.capacity {
                table = table.filter { $0.value.blockedUntil > now }
                if table.count >= Self.capacity { table.removeAll() }
            }
            table[address] = failures
        }
    }

    /// Clears `address`'s count (its key was accepted).
    public func succeeded(_ address: String) {
        _ = table.withLock { table in table.removeValue(forKey: address) }
    }
}
