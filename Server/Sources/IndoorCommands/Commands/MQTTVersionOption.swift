import ArgumentParser
import IndoorMQTT

/// `--mqtt-version` of `indoor serve` and `indoor gateway`: the MQTT version to connect with.
enum MQTTVersionOption: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// MQTT 3.1.1, which every broker speaks (the default).
    case mqtt311 = "3.1.1"
    /// MQTT 5, with a fall-back to 3.1.1 when the broker refuses it (said in the log, and in `/health`).
    case mqtt5 = "5"

    /// The help text of the option.
    static let help = ArgumentHelp(
        "The MQTT version: 3.1.1, or 5 (falling back to 3.1.1 when the broker refuses it; the log says which).",
        valueName: "3.1.1|5")

    /// `configuration` set to connect with this version.
    func applied(to configuration: MQTTConfiguration) -> MQTTConfiguration {
        var configuration = configuration
        switch self {
        case .mqtt311:
            configuration.protocolVersion = .v3_1_1
            configuration.allowsFallBack = false
        case .mqtt5:
            configuration.protocolVersion = .v5
            configuration.allowsFallBack = true
        }
        return configuration
    }
}
