import Foundation
import Logging

/// Where `indoor gateway` speaks: one line at a time on stderr.
enum GatewayLog {
    /// Writes `text` and a newline to stderr.
    static func line(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// A logger to stderr at warning level (the MQTT client's connection problems, at most once a minute).
    static func logger(label: String) -> Logger {
        var logger = Logger(label: label, factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = .warning
        return logger
    }
}
