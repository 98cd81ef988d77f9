/// Which live instance should own each venue: spread evenly (no instance more than one venue above another), and
/// otherwise as stable as rendezvous hashing makes it, so a joining or leaving instance moves few venues.
///
/// Every instance computes the same answer from the same venues and members: the hash is FNV-1a over the ids' UTF-8
/// bytes (Swift's `Hasher` differs between processes).
enum VenuePlacement {
    /// The owner of each of `venues` among `members` (instance ids); empty without members.
    static func owners(venues: [String], members: [String]) -> [String: String] {
        guard !members.isEmpty else { return [:] }
        let sortedVenues = venues.sorted()
        let capacity = (sortedVenues.count + members.count - 1) / members.count
        var load: [String: Int] = [:]
        var owners: [String: String] = [:]
        for venue in sortedVenues {
            let ranked = members.sorted { (score(venue, $0), $0) > (score(venue, $1), $1) }
            guard let owner = ranked.first(where: { load[$0, default: 0] < capacity }) else { continue }
            load[owner, default: 0] += 1
            owners[venue] = owner
        }
        return owners
    }

    /// The rendezvous weight of `member` for `venue`.
    static func score(_ venue: String, _ member: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in venue.utf8 + [0] + member.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        // FNV's low bits mix poorly for short keys: finish with a splitmix step.
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        return hash
    }
}
