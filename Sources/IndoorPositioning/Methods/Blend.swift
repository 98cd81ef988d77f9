import IndoorModel

/// A trust-weighted combination of other methods' estimates.
///
/// Each member's trust is clamped to ≥ 0 (non-finite counts as 0) and the trusts normalised to sum to 1; when all
/// are zero every member weighs the same. Members that fail, or answer a non-finite estimate, are left out and the rest renormalised; when all fail the
/// blend fails, naming each member's reason. In a venue with floors the floor is a trust-weighted vote of the
/// members' floors and only members on that floor (or without one) are averaged. Any ``PositioningMethod`` can be a member, including your own.
public struct Blend: PositioningMethod {
    /// One blended method and how much it is trusted (any non-negative number; only ratios matter).
    public struct Member: Sendable {
        /// The blended method.
        public var method: any PositioningMethod
        /// How much it is trusted: any non-negative finite number (negative or non-finite counts as 0).
        public var trust: Double

        /// A member `method` with `trust` (only ratios between members matter).
        public init(_ method: any PositioningMethod, trust: Double) {
            self.method = method
            self.trust = trust
        }
    }

    /// The name in reports and on the command line (default `blend`).
    public let name: String
    /// The blended methods, in order (the order breaks floor-vote ties).
    public var members: [Member]

    /// A blend of `members`, reported as `name`.
    public init(_ members: [Member], name: String = "blend") {
        self.members = members
        self.name = name
    }

    /// The normalised trusts, in member order (sum 1; equal when all trusts are zero or invalid).
    public var normalizedTrusts: [Double] {
        var trusts = members.map { $0.trust.isFinite ? max($0.trust, 0) : 0 }
        // Scaled by the largest first, so that huge trusts (1e308 each) cannot overflow the sum.
        if let largest = trusts.max(), largest > 0 { trusts = trusts.map { $0 / largest } }
        let total = trusts.reduce(0, +)
        guard total > 0 else {
            return members.isEmpty ? [] : Array(repeating: 1 / Double(members.count), count: members.count)
        }
        return trusts.map { $0 / total }
    }

    /// The trust-weighted mean of the members' positions (metres, venue frame); accuracy combines their accuracies
    /// and their spread about the mean. Fails with `noSolution`, naming each member's reason, when none answers.
    public func estimate(from readings: [NodeReading]) -> Result<Estimate, NoFix> {
        let trusts = normalizedTrusts
        var parts: [(Estimate, Double)] = []
        var reasons: [String] = []
        for (member, trust) in zip(members, trusts) where trust > 0 {
            switch member.method.estimate(from: readings) {
            case .success(let estimate):
                let p = estimate.position
                if p.x.isFinite, p.y.isFinite, p.z.isFinite, estimate.accuracy.isFinite, estimate.confidence.isFinite {
                    parts.append((estimate, trust))
                } else {
                    reasons.append("\(member.method.name): a non-finite position, accuracy or confidence")
                }
            case .failure(let error): reasons.append("\(member.method.name): \(error)")
            }
        }
        let total = parts.reduce(0) { $0 + $1.1 }
        guard total > 0 else {
            let why = members.isEmpty ? "the blend has no members" : reasons.joined(separator: "; ")
            return .failure(NoFix(.noSolution, "no blended method gave a position (\(why))"))
        }
        // The floor: a trust-weighted vote of the members' floors (ties to the strongest nodes' vote, then to the
        // earlier member); only members on that floor, or without one, are averaged.
        var votes: [(floor: Int, weight: Double)] = []
        for (estimate, trust) in parts {
            guard let floor = estimate.floor else { continue }
            if let index = votes.firstIndex(where: { $0.floor == floor }) {
                votes[index].weight += trust
            } else {
                votes.append((floor, trust))
            }
        }
        var floor: Int?
        if var best = votes.first {
            let preferred = FloorSelection.vote(readings)
            for candidate in votes.dropFirst()
            where candidate.weight > best.weight || (candidate.weight == best.weight && candidate.floor == preferred) {
                best = candidate
            }
            floor = best.floor
        }
        let kept = parts.filter { $0.0.floor == nil || $0.0.floor == floor }
        let keptTotal = kept.reduce(0) { $0 + $1.1 }
        var x = 0.0
        var y = 0.0
        var z = 0.0
        var confidence = 0.0
        for (estimate, trust) in kept {
            let w = trust / keptTotal
            x += w * estimate.position.x
            y += w * estimate.position.y
            z += w * estimate.position.z
            confidence += w * estimate.confidence
        }
        var spread = 0.0
        for (estimate, trust) in kept {
            let w = trust / keptTotal
            let dx = estimate.position.x - x
            let dy = estimate.position.y - y
            spread += w * (estimate.accuracy * estimate.accuracy + dx * dx + dy * dy)
        }
        return .success(
            Estimate(
                position: Point3D(x: x, y: y, z: z), floor: floor, accuracy: spread.squareRoot(),
                confidence: min(1, max(0, confidence))))
    }
}
