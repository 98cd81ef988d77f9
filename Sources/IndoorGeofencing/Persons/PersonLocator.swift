import IndoorModel

/// Where each person is: the freshest confident fix of their devices.
///
/// The rule: of a person's devices, those whose latest fix is at most ``freshnessSeconds`` older than the person's
/// newest fix are fresh; of these, the fix with the highest confidence wins, then the smaller accuracy radius, then
/// the later time, then the smaller device id. So a phone in a pocket that is still heard does not pull a person away
/// from a watch that is placed better, a device left in a drawer and no longer heard stops counting
/// ``freshnessSeconds`` after the others moved on, and the answer does not flip between two devices from one fix to
/// the next when they are as good. A device that is let go (``forget(device:)``) no longer counts; a person with no
/// device left has no location.
///
/// Memory: one fix per device of a person (``persons``); fixes of other devices are not kept.
public struct PersonLocator: Hashable, Sendable {
    /// The person each device belongs to, by device id (``IndoorModel/Venue/personOfDevice``).
    public private(set) var persons: [String: String]
    /// How much older than a person's newest fix a device's fix may be and still count, seconds. 5 s by default.
    public var freshnessSeconds: Double
    /// The latest fix of each device of a person, by person and device.
    private var latest: [String: [String: Fix]] = [:]

    /// A locator for `persons` (device id → person id) that knows no fix yet.
    public init(persons: [String: String], freshnessSeconds: Double = 5) {
        self.persons = persons
        self.freshnessSeconds = freshnessSeconds
    }

    /// This locator for the persons `persons` instead: the fixes of devices that still belong to a person are kept.
    public func regrouped(persons: [String: String]) -> PersonLocator {
        var regrouped = PersonLocator(persons: persons, freshnessSeconds: freshnessSeconds)
        for fix in latest.values.flatMap(\.values) {
            guard let person = persons[fix.device] else { continue }
            regrouped.latest[person, default: [:]][fix.device] = fix
        }
        return regrouped
    }

    /// Takes `fix` (in time order per device); the location of its device's person after it, or `nil` when the
    /// device belongs to no person.
    public mutating func update(_ fix: Fix) -> PersonLocation? {
        guard let person = persons[fix.device] else { return nil }
        if let known = latest[person]?[fix.device], known.time > fix.time { return location(of: person) }
        latest[person, default: [:]][fix.device] = fix
        return location(of: person)
    }

    /// Lets go of `device` (lost, forgotten or erased): the id of its person, whose location may have changed (it is
    /// `nil` when no device of theirs is left), or `nil` when the device belonged to no person or had no fix.
    public mutating func forget(device: String) -> String? {
        guard let person = persons[device], latest[person]?.removeValue(forKey: device) != nil else { return nil }
        if latest[person]?.isEmpty == true { latest[person] = nil }
        return person
    }

    /// Where `person` is now by the rule above, or `nil` when none of their devices has a fix.
    public func location(of person: String) -> PersonLocation? {
        let fixes = latest[person].map { Array($0.values) } ?? []
        guard let newest = fixes.map(\.time).max() else { return nil }
        let fresh = fixes.filter { newest - $0.time <= freshnessSeconds }
        guard let best = fresh.min(by: Self.better) else { return nil }
        return PersonLocation(person: person, fix: best, devices: fresh.map(\.device).sorted())
    }

    /// Whether `a` is the better of two fresh fixes: higher confidence, then smaller accuracy radius, then later, then
    /// the smaller device id.
    static func better(_ a: Fix, _ b: Fix) -> Bool {
        if a.confidence != b.confidence { return a.confidence > b.confidence }
        if a.accuracy != b.accuracy { return a.accuracy < b.accuracy }
        if a.time != b.time { return a.time > b.time }
        return a.device < b.device
    }
}

/// Where a person is: the fix chosen among their devices' (``PersonLocator``).
public struct PersonLocation: Hashable, Sendable {
    /// The person's id.
    public var person: String
    /// The fix chosen: its device is the one that placed the person.
    public var fix: Fix
    /// The person's devices whose fixes were fresh enough to count, sorted.
    public var devices: [String]

    /// A person's location.
    public init(person: String, fix: Fix, devices: [String]) {
        self.person = person
        self.fix = fix
        self.devices = devices
    }
}
