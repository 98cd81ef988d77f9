#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which devices an output of the server is given (`indoor serve --publish-device`, `--home-assistant-device`): every
/// device, or only those whose id (as the server names it: an enrolled name, or an `anon-…` pseudonym) matches one
/// of the shell patterns (`*`, `?`, `[…]`).
public enum DeviceSelection: Hashable, Sendable {
    /// Every device.
    case every
    /// The devices matching one of these patterns; none when empty.
    case matching([String])

    /// Every device when one of `patterns` is `*`, else the devices matching one of them (none for no pattern).
    public init(patterns: [String]) {
        self = patterns.contains("*") ? .every : .matching(patterns)
    }

    /// Whether `device` is given the output.
    public func contains(_ device: String) -> Bool {
        switch self {
        case .every: return true
        case .matching(let patterns): return patterns.contains { fnmatch($0, device, 0) == 0 }
        }
    }
}
