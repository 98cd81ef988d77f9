import Testing

@testable import IndoorBenchmarks

@Suite("indoor bench mqtt-publish")
struct BenchMQTTPublishTests {
    @Test("the messages are ESPresense device messages of the CSV rows, replayed in order")
    func workloadFromCSV() throws {
        let workload = try MQTTPublishWorkload(
            csv: "t,device,node,rssi\n0.100,phone-1,n1,-61\n0.200,phone-2,n2,-70.5\n0.300,phone-1,n2,-66\n",
            root: "espresense")
        #expect(workload.messages.count == 3)
        #expect(workload.devices == 2)
        #expect(workload.nodes == 2)
        #expect(workload.message(0).topic == "espresense/devices/phone-1/n1")
        #expect(workload.message(1).payload == Array(#"{"rssi":-70.5}"#.utf8))
        #expect(workload.message(3) == workload.message(0))
    }

    @Test(
        "a file without rows, or a row without a numeric RSSI, is refused",
        arguments: ["t,device,node,rssi\n", "t,device,node,rssi\n0,phone,n1,loud\n", "t,device,node,rssi\n0,,n1,-60\n"])
    func refusesBadCSV(text: String) {
        #expect(throws: MQTTPublishBenchError.self) { try MQTTPublishWorkload(csv: text, root: "espresense") }
    }

    @Test("the counter is read from a Prometheus page, ignoring labelled series")
    func counterFromMetrics() {
        let page = """
            # TYPE indoor_sightings_ingested_total counter
            indoor_sightings_ingested_total_other 5
            indoor_sightings_ingested_total 12345
            """
        #expect(IngestCounterProbe.counter(in: page) == 12345)
        #expect(IngestCounterProbe.counter(in: "up 1") == nil)
    }

    @Test(
        "options out of range are refused",
        arguments: [
            ["--qos", "2"], ["--publishers", "0"], ["--in-flight", "0"], ["--count", "0"], ["--broker", "http://x"],
            ["--broker", "mqtts://127.0.0.1"],
        ])
    func rejectsOptions(arguments: [String]) {
        #expect(throws: (any Error).self) {
            try BenchCommand.parseAsRoot(
                ["mqtt-publish", "--server", "http://127.0.0.1:8080", "--sightings", "s.csv"] + arguments)
        }
    }

    @Test("the defaults parse")
    func parsesDefaults() throws {
        let command = try BenchCommand.parseAsRoot([
            "mqtt-publish", "--server", "http://127.0.0.1:8080", "--sightings", "s.csv",
        ])
        #expect(command is BenchMQTTPublishCommand)
    }
}
