import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorServer
import IndoorServerTestSupport
import NIOCore
import Testing

/// `GET /v1/venues/{venue}/reports/zones`, against each store: per zone and bucket, the numbers the visits give
/// when recomputed from `GET /v1/activity`; CSV on `Accept: text/csv`; buckets in the venue's time zone; clear
/// errors for bad parameters.
@Suite struct ZoneReportRouteTests {
    static func csvHeaders() -> HTTPFields {
        var fields = ServerFixture.headers(ServerFixture.read)
        fields[.accept] = "text/csv"
        return fields
    }

    @Test(arguments: StoreKind.tested) func theReportEqualsTheVisitsRecomputed(_ store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.putVenue().status == .created)
            #expect(try await client.post(HistoryRouteTests.walks).status == .ok)
            let activity = try await client.get("/v1/activity?venue=tiny&limit=1000")
            let visits = activity.json["visits"] as? [[String: Any]] ?? []
            let east = visits.filter { $0["zone"] as? String == "east" }
            #expect(east.count == 2, "\(visits)")

            let answer = try await client.get("/v1/venues/tiny/reports/zones?from=0&to=3600&bucket=hour")
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.headers[.contentType] == "application/json")
            #expect(answer.json["timeZone"] as? String == "UTC")
            #expect(answer.json["bucket"] as? String == "hour")
            #expect(answer.json["from"] as? Double == 0 && answer.json["to"] as? Double == 3600)
            #expect(answer.json["storedSince"] as? Double == visits.compactMap { $0["checkIn"] as? Double }.min())
            let rows = answer.json["rows"] as? [[String: Any]] ?? []
            // Every zone of the venue, in its order, in the one bucket.
            #expect(rows.compactMap { $0["zone"] as? String } == ["east", "gate"])
            let row = try #require(rows.first)
            #expect(row["name"] as? String == "East room")
            #expect(row["local"] as? String == "1970-01-01T00:00:00Z")
            #expect(row["visits"] as? Int == east.count)
            #expect(row["devices"] as? Int == Set(east.compactMap { $0["device"] as? String }).count)
            let dwells = east.compactMap { $0["dwell"] as? Double }.sorted()
            #expect(dwells.count == 2)
            let median = (dwells[0] + dwells[1]) / 2
            #expect(abs((row["dwellMedian"] as? Double ?? -1) - median) < 0.001)
            let p90 = dwells[0] + (dwells[1] - dwells[0]) * 0.9
            #expect(abs((row["dwell90"] as? Double ?? -1) - p90) < 0.001)
            // Presence: check-in to departure, over the hour.
            let presence = east.reduce(0.0) { sum, visit in
                sum + ((visit["departure"] as? Double ?? 0) - (visit["checkIn"] as? Double ?? 0))
            }
            #expect(abs((row["meanOccupancy"] as? Double ?? -1) - presence / 3600) < 0.001)
            // Both devices were in the room at once when their visits overlap.
            let overlap =
                (east[0]["checkIn"] as? Double ?? 0) < (east[1]["departure"] as? Double ?? 0)
                && (east[1]["checkIn"] as? Double ?? 0) < (east[0]["departure"] as? Double ?? 0)
            #expect(row["peakOccupancy"] as? Int == (overlap ? 2 : 1))
            // The gate's crossings are visits without dwell or occupancy.
            let gate = rows[1]
            #expect(gate["visits"] as? Int == visits.filter { $0["zone"] as? String == "gate" }.count)
            #expect(gate["dwellMedian"] == nil)
            #expect(gate["meanOccupancy"] as? Double == 0 && gate["peakOccupancy"] as? Int == 0)

            // CSV for a spreadsheet: a header and a line per zone and bucket, the same numbers.
            let csv = try await client.execute(
                uri: "/v1/venues/tiny/reports/zones?from=0&to=7200&bucket=hour", method: .get,
                headers: Self.csvHeaders())
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            let lines = csv.text.split(separator: "\r\n").map(String.init)
            #expect(lines.count == 1 + 2 * 2, "\(csv.text)")
            #expect(
                lines.first
                    == "zone,name,start,end,localStart,visits,devices,dwellMedianSeconds,dwell90Seconds,meanOccupancy,"
                    + "peakOccupancy")
            let fields = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(fields[0] == "east" && fields[1] == "East room" && fields[2] == "0" && fields[3] == "3600")
            #expect(fields[5] == "\(east.count)")
            #expect(fields[10] == "\(row["peakOccupancy"] as? Int ?? -1)")
            #expect(lines[2].hasPrefix("east,East room,3600,7200,1970-01-01T01:00:00Z,0,0,,,0,0"))
            let viaQuery = try await client.get("/v1/venues/tiny/reports/zones?from=0&to=7200&format=csv")
            #expect(viaQuery.text == csv.text)
        }
    }

    @Test(arguments: StoreKind.tested) func daysFollowTheVenuesTimeZone(_ store: StoreKind) async throws {
        let fixture = try await ServerFixture(store: store)
        defer { fixture.remove() }
        try await fixture.test { client in
            let berlin = ServerFixture.venueJSON.replacingOccurrences(
                of: #""name": "Tiny""#, with: #""name": "Tiny", "timeZone": "Europe/Berlin""#)
            #expect(try await client.putVenue(berlin).status == .created)
            // The venue keeps its time zone.
            let venue = try await client.get("/v1/venues/tiny")
            #expect(venue.json["timeZone"] as? String == "Europe/Berlin")
            #expect(try await client.post(HistoryRouteTests.walks).status == .ok)
            // Midnight in Berlin in January 1970 was 23:00 UTC: the day holding t = 0 began an hour before it.
            let answer = try await client.get("/v1/venues/tiny/reports/zones?from=0&to=86400&bucket=day")
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.json["timeZone"] as? String == "Europe/Berlin")
            #expect(answer.json["from"] as? Double == -3600)
            #expect(answer.json["to"] as? Double == Double(2 * 86400 - 3600))
            let rows = answer.json["rows"] as? [[String: Any]] ?? []
            #expect(rows.count == 2 * 2)
            #expect(rows.first?["local"] as? String == "1970-01-01T00:00:00+01:00")
            #expect(rows.first?["visits"] as? Int == 2)
            // Weeks start on Monday: 1970-01-01 was a Thursday.
            let week = try await client.get("/v1/venues/tiny/reports/zones?from=0&to=1&bucket=week")
            #expect(week.json["from"] as? Double == Double(-3 * 86400 - 3600))
            // A venue with a time zone that is not one is refused, naming the field.
            let wrong = ServerFixture.venueJSON.replacingOccurrences(
                of: #""name": "Tiny""#, with: #""name": "Tiny", "timeZone": "Mars/Olympus""#)
            let refused = try await client.putVenue(wrong)
            #expect(refused.status == .badRequest)
            #expect((refused.json["field"] as? String)?.contains("timeZone") == true, "\(refused.text)")
        }
    }

    @Test(arguments: [
        ("to=10", "from"), ("from=0", "to"), ("from=10&to=5", "to"), ("from=0&to=10&bucket=minute", "bucket"),
        ("from=0&to=100000000&bucket=hour", "bucket"), ("from=0&to=10&format=xml", "format"),
        ("from=zero&to=10", "from"),
    ])
    func aBadParameterIsA400NamingIt(query: String, field: String) async throws {
        let fixture = try await ServerFixture()
        defer { fixture.remove() }
        try await fixture.test { client in
            #expect(try await client.putVenue().status == .created)
            let answer = try await client.get("/v1/venues/tiny/reports/zones?\(query)")
            #expect(answer.status == .badRequest, "\(query): \(answer.text)")
            #expect(answer.json["field"] as? String == field, "\(query): \(answer.text)")
            #expect(try await client.get("/v1/venues/nowhere/reports/zones?from=0&to=1").status == .notFound)
        }
    }
}
