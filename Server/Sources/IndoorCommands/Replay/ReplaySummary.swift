import IndoorModel
import IndoorPositioning
import IndoorSession

/// What a replay did, for the one-line summary on stderr.
public struct ReplaySummary: Hashable, Sendable, CustomStringConvertible {
    /// Sightings replayed.
    public var sightings = 0
    /// Sightings of nodes the venue does not have (the positioning engine ignores them).
    public var unknownNodes = 0
    /// Fixes written.
    public var fixes = 0
    /// Locate attempts that gave no fix, by ``NoFix`` code name.
    public var noFix: [String: Int] = [:]
    /// Fixes given by the fallback method, by the default method's ``NoFix`` code name.
    public var fallbacks: [String: Int] = [:]
    /// Zone events written (check-ins, check-outs, dwells).
    public var zoneEvents = 0
    /// Visits still open when the sightings ended.
    public var openVisits = 0
    /// The last sighting's time, seconds; `nil` without sightings.
    public var end: Double?
    /// Sightings refused at ingest (non-finite time, RSSI outside the physical range).
    public var refused = 0
    /// The method that gave the ``fallbacks`` fixes.
    public var fallbackMethod = FallbackPolicy.weightedCentroid.method?.rawValue ?? ""
    /// The session's method (the one the fallback stood in for).
    public var method = MethodCatalog.defaultName
    /// Sightings that came after a sighting with a later time had already been replayed (beyond the
    /// ``reorderWindow``); they were replayed as they came.
    public var late = 0
    /// The re-order window of the replay, seconds.
    public var reorderWindow = ReplayRun.defaultReorderWindow
    /// Sightings of one node by another that positioning took as links (never a device).
    public var nodeLinks = 0
    /// Sightings of one node by another that could not be used (an unknown node, a node hearing itself, two floors).
    public var ignoredNodeLinks = 0
    /// The last fit of self-calibration from those links, `nil` without one.
    public var selfCalibration: NodeLinkCalibration.Fit?
    /// Whether positioning calibrated the nodes from those links (off with a survey, a calibration that knows the
    /// path loss, or `--no-self-calibration`).
    public var isSelfCalibrating = false

    public init() {}

    /// The counts of a session's statistics.
    init(_ statistics: SessionStatistics, fallbackMethod: String?) {
        sightings = statistics.sightings
        unknownNodes = statistics.unknownNodes
        fixes = statistics.fixes
        noFix = statistics.noFix
        fallbacks = statistics.fallbacks
        zoneEvents = statistics.zoneEvents
        refused = statistics.refused
        nodeLinks = statistics.nodeLinks
        ignoredNodeLinks = statistics.ignoredNodeLinks
        if let fallbackMethod { self.fallbackMethod = fallbackMethod }
    }

    /// For example `replay: 12 sightings, 3 fixes, 2 zone events; 1 visit still open at t = 22;
    /// 2 by weighted-centroid as nonlinear could not (tooFewNodes 2); 9 attempts gave no fix (notHeard 9);
    /// 1 sightings out of time order by more than the 10 s re-order window (replayed as they came)`.
    public var description: String {
        var text = "replay: \(sightings) sightings, \(fixes) fixes, \(zoneEvents) zone events"
        if openVisits > 0, let end {
            text += "; \(openVisits) \(openVisits == 1 ? "visit" : "visits") still open at t = \(Self.seconds(end))"
        }
        let fellBack = fallbacks.values.reduce(0, +)
        if fellBack > 0 {
            let codes = fallbacks.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            text +=
                "; \(fellBack) by \(fallbackMethod) as \(method) could not (\(codes))"
        }
        let failed = noFix.values.reduce(0, +)
        if failed > 0 {
            let codes = noFix.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            text += "; \(failed) attempts gave no fix (\(codes))"
        }
        if late > 0 {
            text +=
                "; \(late) sightings out of time order by more than the \(Self.seconds(reorderWindow)) s re-order window"
                + " (replayed as they came)"
        }
        if unknownNodes > 0 { text += "; \(unknownNodes) sightings of nodes not in the venue" }
        if nodeLinks + ignoredNodeLinks > 0 { text += "; " + linksText }
        if refused > 0 {
            text +=
                "; \(refused) sightings refused (RSSI outside \(Int(Sighting.physicalRSSIRange.lowerBound))…"
                + "\(Int(Sighting.physicalRSSIRange.upperBound)) dBm, or a time that is not a number)"
        }
        return text
    }

    /// For example `1200 node-to-node sightings (3 ignored); self-calibration: 10 nodes fitted on 90 links, path-loss
    /// exponent 2.54, levels -68.8…-62.1 dBm at 1 m`.
    private var linksText: String {
        var text = "\(nodeLinks) node-to-node sightings"
        if ignoredNodeLinks > 0 { text += " (\(ignoredNodeLinks) ignored)" }
        guard isSelfCalibrating else { return text + "; self-calibration off" }
        guard let fit = selfCalibration else { return text + "; no self-calibration" }
        let levels = fit.nodes.compactMap(\.rssiAtOneMeter)
        text += "; self-calibration: \(levels.count) nodes fitted on \(fit.linksUsed) links, path-loss exponent "
        text += String(format: "%.2f", fit.pathLossExponent)
        if let low = levels.min(), let high = levels.max() {
            text += String(format: ", levels %.1f…%.1f dBm at 1 m", low, high)
        }
        return text
    }

    /// Whole seconds without a fraction, others as Swift prints them.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
