import Foundation

/// The messages of `indoor-bench mqtt-publish`: ESPresense device messages, one sighting each, made from the rows of
/// `indoor simulate`'s `sightings.csv` (`t,device,node,rssi`), the workload that `scripts/bench-serve.sh` posts over
/// HTTP, so that both paths ingest the same devices heard by the same nodes at the same strengths.
///
/// Message `i` is row `i % rows` (the file is replayed in order, lap after lap): topic
/// `<root>/devices/<device>/<node>`, payload `{"rssi":<rssi>}`. The row's time is not sent: ESPresense messages carry
/// none (the server stamps each batch with its own clock).
struct MQTTPublishWorkload: Sendable {
    /// One message: its topic and its JSON payload (UTF-8).
    struct Message: Sendable, Hashable {
        var topic: String
        var payload: [UInt8]
    }

    /// One message per row of the file, in the file's order.
    var messages: [Message]
    /// Distinct devices in the file.
    var devices: Int
    /// Distinct nodes in the file.
    var nodes: Int

    /// The message to send `index`-th (0-based), replaying the rows in order.
    func message(_ index: Int) -> Message {
        messages[index % messages.count]
    }

    /// The workload of the sightings CSV at `path`.
    ///
    /// - Throws: ``MQTTPublishBenchError`` when the file cannot be read, has no data row, or a row has no device,
    ///   no node or an RSSI that is not a number.
    init(csvAt path: String, root: String) throws(MQTTPublishBenchError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw MQTTPublishBenchError("cannot read the sightings file '\(path)': \(error.localizedDescription)")
        }
        try self.init(csv: text, root: root, source: path)
    }

    /// The workload of CSV `text` (a header line `t,device,node,rssi`, then one row per sighting).
    ///
    /// - Parameter source: The file's name, for messages.
    init(csv text: String, root: String, source: String = "the sightings") throws(MQTTPublishBenchError) {
        var messages: [Message] = []
        var devices = Set<Substring>()
        var nodes = Set<Substring>()
        var lineNumber = 0
        for line in text.split(whereSeparator: \.isNewline) {
            lineNumber += 1
            if lineNumber == 1 { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 4, !fields[1].isEmpty, !fields[2].isEmpty, let rssi = Double(fields[3]),
                rssi.isFinite
            else {
                throw MQTTPublishBenchError(
                    "\(source), line \(lineNumber): expected t,device,node,rssi with a numeric rssi (dBm)")
            }
            devices.insert(fields[1])
            nodes.insert(fields[2])
            messages.append(
                Message(
                    topic: "\(root)/devices/\(fields[1])/\(fields[2])",
                    payload: Array("{\"rssi\":\(fields[3])}".utf8)))
        }
        guard !messages.isEmpty else { throw MQTTPublishBenchError("\(source) has no sighting rows") }
        self.messages = messages
        self.devices = devices.count
        self.nodes = nodes.count
    }
}
