import Hummingbird
import Synchronization

/// The methods each route path answers, so that a known path asked with another method is answered
/// 405 Method Not Allowed with an `Allow` header (RFC 9110 §15.5.6) rather than 404.
///
/// Filled once the router's routes are added (``record(_:)``); read by ``ErrorMiddleware`` for requests that
/// matched no route.
final class RouteMethods: Sendable {
    private struct Entry {
        /// The path's segments; a parameter (`:venue`, `{venue}`) or `*` matches any one segment.
        var segments: [Substring]
        var methods: Set<String>
    }

    private let entries = Mutex<[Entry]>([])

    /// Records the router's routes.
    func record(_ routes: [(path: String, method: String)]) {
        var entries: [Entry] = []
        for route in routes {
            let segments = route.path.split(separator: "/")
            if let index = entries.firstIndex(where: { $0.segments == segments }) {
                entries[index].methods.insert(route.method)
            } else {
                entries.append(Entry(segments: segments, methods: [route.method]))
            }
        }
        self.entries.withLock { $0 = entries }
    }

    /// The methods some route of `path` answers, sorted; empty when no route has this path.
    func allowed(path: String) -> [String] {
        let segments = path.split(separator: "/")
        var methods: Set<String> = []
        entries.withLock { entries in
            for entry in entries where Self.matches(entry.segments, segments) {
                methods.formUnion(entry.methods)
            }
        }
        return methods.sorted()
    }

    private static func matches(_ pattern: [Substring], _ segments: [Substring]) -> Bool {
        guard pattern.count == segments.count else { return false }
        for (expected, actual) in zip(pattern, segments) {
            let wildcard = expected.hasPrefix(":") || expected.hasPrefix("{") || expected == "*"
            if !wildcard && expected != actual { return false }
        }
        return true
    }
}
