/// Puts fragmented extended advertising data back together, per advertiser address and advertising set.
///
/// A controller reports a long extended advertisement in several LE Extended Advertising Report events;
/// bits 5–6 of each report's event type say whether more data follows (1), the data is complete (0), or the
/// controller truncated it (2). Fragments are held per address type, address and SID until the last one.
/// Memory is bounded: at most ``maxPending`` advertisements in progress, each at most ``maxDataLength`` bytes.
public struct ExtendedAdvertisingAssembler: Sendable {
    /// The longest extended advertising data the Core Specification allows, bytes.
    static let maxDataLength = 1650
    /// How many advertisers may be part-way through a fragmented advertisement at once.
    static let maxPending = 64

    var pending: [UInt64: [UInt8]] = [:]

    /// An assembler with nothing pending.
    public init() {}

    /// How many advertisements are waiting for more fragments.
    public var pendingCount: Int { pending.count }

    /// Takes one report's fragment; calls `body` with the whole data when the advertisement is complete.
    ///
    /// - Returns: A problem when fragments had to be dropped, nil otherwise.
    mutating func take(_ view: ReportView, _ body: (ReportView) -> Void) -> AdvertisingError? {
        let status = (view.eventType >> 5) & 0x3
        let key = view.address.rawValue | UInt64(view.addressType) << 48 | UInt64(view.sid) << 56
        if status == 1 {
            var data = pending.removeValue(forKey: key) ?? []
            data.append(contentsOf: view.data)
            guard data.count <= Self.maxDataLength else {
                return AdvertisingError(
                    code: .reassembly,
                    message:
                        "extended advertisement from \(view.address) (SID \(view.sid)) grew past \(Self.maxDataLength) bytes; fragments dropped"
                )
            }
            var problem: AdvertisingError?
            if pending.count >= Self.maxPending {
                problem = AdvertisingError(
                    code: .reassembly,
                    message:
                        "more than \(Self.maxPending) fragmented extended advertisements in progress; \(pending.count) dropped"
                )
                pending.removeAll(keepingCapacity: true)
            }
            pending[key] = data
            return problem
        }
        var complete = view
        complete.dataComplete = status == 0
        guard var data = pending.removeValue(forKey: key) else {
            body(complete)
            return nil
        }
        data.append(contentsOf: view.data)
        data.withUnsafeBytes { buffer in
            complete.data = buffer
            body(complete)
        }
        return nil
    }
}
