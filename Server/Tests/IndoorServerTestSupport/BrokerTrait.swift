import Testing

extension Trait where Self == ConditionTrait {
    /// Runs the test only where the broker the MQTT suites run against (``BrokerKind/tested``, chosen by
    /// `INDOOR_TEST_BROKER`) can be started; skipped elsewhere with a comment saying what to install.
    package static var needsBroker: Self {
        guard let kind = BrokerKind.tested else {
            return .enabled(
                if: false,
                Comment(
                    rawValue: "\(BrokerKind.environmentVariable) names no broker the tests can start: use "
                        + BrokerKind.allCases.map(\.rawValue).joined(separator: " or ")))
        }
        return .enabled(if: kind.isInstalled, "needs a real MQTT broker (\(kind)): \(kind.installHint)")
    }

    /// Runs the test only where mosquitto can be started and the MQTT suites run against it (``BrokerKind/tested``):
    /// for what only mosquitto offers (a setting of its configuration, its log lines, MQTT 5). `why` says what; the
    /// test is skipped, saying so, in the run against another broker, and runs in the run against mosquitto.
    package static func needsMosquitto(_ why: String) -> Self {
        .enabled(
            if: BrokerKind.tested == .mosquitto && BrokerKind.mosquitto.isInstalled,
            Comment(
                rawValue: "mosquitto only (\(why)); runs against mosquitto (\(BrokerKind.environmentVariable) unset), "
                    + "which needs Debian's mosquitto and mosquitto-clients"))
    }

    /// Runs the test only where amqtt is installed (``BrokerKind/amqtt``), whatever broker the other suites run
    /// against; skipped elsewhere, saying what to install.
    package static var needsAMQTT: Self {
        .enabled(if: BrokerKind.amqtt.isInstalled, "needs amqtt, a second MQTT broker: \(BrokerKind.amqtt.installHint)")
    }
}
