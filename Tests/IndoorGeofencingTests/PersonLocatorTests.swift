import IndoorGeofencing
import IndoorModel
import Testing

@Suite("Person locator")
struct PersonLocatorTests {
    static func fix(_ device: String, at time: Double, x: Double, accuracy: Double = 2, confidence: Double = 0.5) -> Fix
    {
        Fix(
            time: time, device: device, position: Point3D(x: x, y: 0, z: 0), accuracy: accuracy,
            confidence: confidence, method: "test")
    }

    static let persons = ["phone": "anna", "watch": "anna", "tag": "bo"]

    @Test("the freshest confident fix of a person's devices places them")
    func freshestConfident() throws {
        var locator = PersonLocator(persons: Self.persons, freshnessSeconds: 5)
        // A device of no person is not kept.
        #expect(locator.update(Self.fix("stranger", at: 0, x: 9)) == nil)
        #expect(locator.update(Self.fix("phone", at: 10, x: 1, confidence: 0.4))?.fix.device == "phone")
        // The watch is as fresh and more confident: it wins, and both count.
        let watch = locator.update(Self.fix("watch", at: 11, x: 2, confidence: 0.8))
        let both = try #require(watch)
        #expect(both.fix.device == "watch" && both.devices == ["phone", "watch"])
        // A later phone fix that is less confident does not pull Anna back to the phone.
        #expect(locator.update(Self.fix("phone", at: 12, x: 1, confidence: 0.4))?.fix.device == "watch")
        // Equal confidence: the smaller accuracy radius, then the later fix.
        #expect(locator.update(Self.fix("phone", at: 13, x: 1, accuracy: 1, confidence: 0.8))?.fix.device == "phone")
        // The watch left in a drawer (no fix for more than 5 s while the phone moves on) stops counting.
        let later = locator.update(Self.fix("phone", at: 17, x: 5, accuracy: 3, confidence: 0.3))
        let moved = try #require(later)
        #expect(moved.fix.device == "phone" && moved.devices == ["phone"])
        // An older fix than the one kept changes nothing.
        #expect(locator.update(Self.fix("phone", at: 15, x: 0))?.fix.time == 17)
        // Bo is placed by his tag alone.
        #expect(locator.update(Self.fix("tag", at: 3, x: 7))?.person == "bo")
        #expect(locator.location(of: "bo")?.fix.position.x == 7)
    }

    @Test("a device let go no longer counts; with none left the person has no location")
    func forget() {
        var locator = PersonLocator(persons: Self.persons)
        _ = locator.update(Self.fix("phone", at: 1, x: 1))
        _ = locator.update(Self.fix("watch", at: 1, x: 2, confidence: 0.9))
        #expect(locator.forget(device: "watch") == "anna")
        #expect(locator.location(of: "anna")?.fix.device == "phone")
        #expect(locator.forget(device: "watch") == nil, "already let go")
        #expect(locator.forget(device: "phone") == "anna")
        #expect(locator.location(of: "anna") == nil)
        #expect(locator.forget(device: "stranger") == nil)
    }

    @Test("regrouped: fixes of devices that still belong to a person are kept")
    func regrouped() {
        var locator = PersonLocator(persons: Self.persons)
        _ = locator.update(Self.fix("phone", at: 1, x: 1))
        _ = locator.update(Self.fix("tag", at: 1, x: 4))
        let regrouped = locator.regrouped(persons: ["phone": "anna", "tag": "anna"])
        #expect(regrouped.location(of: "anna")?.devices == ["phone", "tag"])
        #expect(regrouped.location(of: "bo") == nil)
    }
}
