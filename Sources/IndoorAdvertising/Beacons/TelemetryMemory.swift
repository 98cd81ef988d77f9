/// What a capture decoder remembers per advertiser address, to attach Eddystone TLM frames to identity frames.
///
/// A direct-mapped table of ``slotCount`` slots, indexed by a multiplicative hash of the address: constant
/// memory, no hashing of keys on the hot path. Two addresses that share a slot displace each other, so with
/// many Eddystone advertisers in range a TLM frame may occasionally go unattached (never misattached: each slot
/// checks its address).
struct TelemetryMemory: Sendable {
    struct Entry: Sendable {
        /// The address plus one (0 = empty slot).
        var key: UInt64 = 0
        var identity: BeaconFrame?
        var telemetry: EddystoneTLM?
    }

    static let slotBits = 12
    static let slotCount = 1 << slotBits

    var slots: [Entry] = []

    /// Records `advertisement`'s frame and fills in its telemetry (identity frames) or its owner (TLM frames).
    @inline(__always)
    mutating func remember(_ advertisement: inout BeaconAdvertisement) {
        if slots.isEmpty { slots = [Entry](repeating: Entry(), count: Self.slotCount) }
        let key = advertisement.address.rawValue &+ 1
        let slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - Self.slotBits))
        slots.withUnsafeMutableBufferPointer { table in
            if table[slot].key != key { table[slot] = Entry(key: key) }
            if case .eddystoneTLM(let telemetry) = advertisement.frame {
                table[slot].telemetry = telemetry
                advertisement.telemetryOwner = table[slot].identity
            } else {
                table[slot].identity = advertisement.frame
                advertisement.telemetry = table[slot].telemetry
            }
        }
    }
}
