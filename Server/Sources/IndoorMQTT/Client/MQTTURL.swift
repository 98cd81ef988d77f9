/// A broker address: `mqtt://[user@]host[:port]` (plain TCP, port 1883 by default) or `mqtts://…` (TLS,
/// port 8883). An IPv6 address goes in brackets: `mqtt://[::1]:1883`. A trailing `/` is allowed; a path,
/// query or password is not.
public struct MQTTURL: Sendable, Hashable, CustomStringConvertible {
    public var isTLS: Bool
    public var host: String
    public var port: Int
    public var username: String?

    public init(isTLS: Bool, host: String, port: Int, username: String? = nil) {
        self.isTLS = isTLS
        self.host = host
        self.port = port
        self.username = username
    }

    /// Parses a broker URL; throws `MQTTURLError` saying what is wrong and what is accepted.
    public init(parsing text: String) throws(MQTTURLError) {
        let form = "expected mqtt://[user@]host[:port] or mqtts://[user@]host[:port]"
        let rest: Substring
        if text.hasPrefix("mqtt://") {
            isTLS = false
            rest = text.dropFirst("mqtt://".count)
        } else if text.hasPrefix("mqtts://") {
            isTLS = true
            rest = text.dropFirst("mqtts://".count)
        } else {
            let scheme = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? text
            throw MQTTURLError("broker URL \"\(text)\" has scheme \"\(scheme)\"; \(form)")
        }
        var authority = rest
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        if authority.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            throw MQTTURLError("broker URL \"\(text)\" has a path or query; \(form)")
        }
        var hostAndPort = authority
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            if userInfo.contains(":") {
                throw MQTTURLError(
                    "broker URL \"\(text)\" contains a password; put the user name in the URL and the password in "
                        + "the environment variable \(MQTTConfiguration.passwordEnvironmentVariable) instead")
            }
            if userInfo.isEmpty { throw MQTTURLError("broker URL \"\(text)\" has an empty user name; \(form)") }
            username = String(userInfo).removingPercentEncodingIfPossible
            hostAndPort = authority[authority.index(after: at)...]
        } else {
            username = nil
        }
        var portText: Substring?
        if hostAndPort.hasPrefix("[") {
            guard let close = hostAndPort.firstIndex(of: "]") else {
                throw MQTTURLError("broker URL \"\(text)\" has an unclosed [ in its IPv6 address; \(form)")
            }
            host = String(hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close])
            let after = hostAndPort[hostAndPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    throw MQTTURLError("broker URL \"\(text)\" has characters after the IPv6 address; \(form)")
                }
                portText = after.dropFirst()
            }
        } else if let colon = hostAndPort.lastIndex(of: ":") {
            host = String(hostAndPort[..<colon])
            portText = hostAndPort[hostAndPort.index(after: colon)...]
        } else {
            host = String(hostAndPort)
        }
        if host.isEmpty { throw MQTTURLError("broker URL \"\(text)\" has no host; \(form)") }
        if let portText {
            guard let port = Int(portText), (1...65_535).contains(port), portText.allSatisfy(\.isASCII) else {
                throw MQTTURLError(
                    "broker URL \"\(text)\" has port \"\(portText)\"; a port is a number from 1 to 65535")
            }
            self.port = port
        } else {
            port = isTLS ? 8883 : 1883
        }
    }

    public var description: String {
        let user = username.map { "\($0)@" } ?? ""
        let hostText = host.contains(":") ? "[\(host)]" : host
        return "\(isTLS ? "mqtts" : "mqtt")://\(user)\(hostText):\(port)"
    }
}

extension String {
    /// Decodes `%XX` escapes (a user name with `@` in it); the text unchanged if it has malformed ones.
    fileprivate var removingPercentEncodingIfPossible: String {
        guard contains("%") else { return self }
        var bytes: [UInt8] = []
        var utf8 = Array(self.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
                else { return self }
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? self
    }
}
