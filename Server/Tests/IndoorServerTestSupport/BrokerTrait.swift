import Testing

extension Trait where Self == ConditionTrait {
    /// Runs the test only where a real MQTT broker can be started (``Broker/isInstalled``); skipped elsewhere with a
    /// comment saying what to install.
    package static var needsBroker: Self {
        .enabled(
            if: Broker.isInstalled,
            "needs a real MQTT broker: install Debian's mosquitto and mosquitto-clients (apt-get install mosquitto mosquitto-clients; CI installs them)"
        )
    }
}
