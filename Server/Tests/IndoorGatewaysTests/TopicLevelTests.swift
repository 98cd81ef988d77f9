import IndoorGateways
import Testing

/// The one rule for ids as MQTT topic levels and Home Assistant object ids.
@Suite struct TopicLevelTests {
    static let ids = [
        "phone-1", "anna.phone", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/1/7", "c+d", "e#f", "tag_7", "café", "a b",
        "AA:BB:CC:DD:EE:FF", "_", "%41", "日本",
    ]

    @Test func everyIdIsOneLevelOfLettersDigitsDashAndUnderscoreAndComesBack() {
        for id in Self.ids {
            let level = TopicLevel.escape(id)
            #expect(
                level.unicodeScalars.allSatisfy {
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                        || $0 == "_"
                }, "\(id) → \(level)")
            #expect(TopicLevel.unescape(level) == id, "\(id) → \(level)")
        }
        #expect(Set(Self.ids.map(TopicLevel.escape)).count == Self.ids.count)
    }

    @Test func theRuleByExample() {
        #expect(TopicLevel.escape("phone-1") == "phone-1")
        #expect(TopicLevel.escape("anna.phone") == "anna_2Ephone")
        #expect(TopicLevel.escape("UUID/1/7") == "UUID_2F1_2F7")
        #expect(TopicLevel.escape("tag_7") == "tag_5F7")
        #expect(TopicLevel.escape("café") == "caf_C3_A9")
        #expect(TopicLevel.escape("c+d#") == "c_2Bd_23")
    }

    @Test func aLevelNoIdEscapesToIsRefused() {
        for level in ["a.b", "a_2", "a_2e", "a_41", "a_zz", "a/b", "_C3"] {
            #expect(TopicLevel.unescape(level) == nil, "\(level)")
        }
    }
}
