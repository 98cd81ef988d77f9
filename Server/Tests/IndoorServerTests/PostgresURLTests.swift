import IndoorServer
import Testing

/// `--database postgres://…` read into a ``PostgresURL``: no PostgreSQL needed.
@Suite("PostgreSQL URLs")
struct PostgresURLTests {
    @Test func theFieldsAndTheirDefaults() throws {
        let url = try PostgresURL("postgres://indoor@db.example.com/locations")
        #expect(url.host == "db.example.com")
        #expect(url.port == 5432)
        #expect(url.user == "indoor")
        #expect(url.password == nil)
        #expect(url.database == "locations")
        #expect(url.tls == .prefer)
        #expect("\(url)" == "postgres://indoor@db.example.com:5432/locations?sslmode=prefer")
        let local = try PostgresURL("postgresql://me@127.0.0.1:6543")
        #expect(local.port == 6543)
        #expect(local.database == "me")
        #expect(local.tls == .disable)
        #expect("\(local)" == "postgres://me@127.0.0.1:6543/me")
        let v6 = try PostgresURL("postgres://me@[::1]:6543/db")
        #expect(v6.host == "::1")
        #expect(v6.tls == .disable)
        #expect(v6.address == "[::1]:6543")
        #expect("\(v6)" == "postgres://me@[::1]:6543/db")
    }

    @Test func thePasswordComesFromTheEnvironmentFirstAndIsNeverShown() throws {
        let inURL = try PostgresURL("postgres://indoor:s%40cret@localhost/x")
        #expect(inURL.password == "s@cret")
        #expect(!"\(inURL)".contains("cret"))
        let both = try PostgresURL("postgres://indoor:fromurl@localhost/x", environmentPassword: "fromenv")
        #expect(both.password == "fromenv")
        #expect(PostgresURL.redacted("postgres://indoor:hush@h/x") == "postgres://indoor:***@h/x")
    }

    @Test(arguments: [
        ("?sslmode=disable", PostgresURL.TLSMode.disable), ("?sslmode=prefer", .prefer),
        ("?sslmode=require", .require), ("?sslmode=verify-full&sslrootcert=/etc/ca.pem", .verifyFull),
    ])
    func sslmodeChoosesTLS(query: String, mode: PostgresURL.TLSMode) throws {
        let url = try PostgresURL("postgres://indoor@localhost/x" + query)
        #expect(url.tls == mode)
        #expect(url.rootCertificates == (mode == .verifyFull ? "/etc/ca.pem" : nil))
    }

    @Test(arguments: [
        "postgres://localhost/x", "postgres:///x", "mysql://a@b/c", "postgres://a@h/x?sslmode=maybe",
        "postgres://a@h/x?timeout=3", "postgres://a:pw@h/x/y",
    ])
    func aWrongURLIsRefusedSayingWhy(text: String) throws {
        let error = #expect(throws: StoreError.self) { try PostgresURL(text) }
        #expect(error?.message.contains("pw") == false)
    }

    @Test func whichDatabaseTextIsPostgreSQL() {
        #expect(PostgresURL.isPostgres("postgres://a@b/c"))
        #expect(PostgresURL.isPostgres("PostgreSQL://a@b/c"))
        #expect(!PostgresURL.isPostgres("indoor.sqlite"))
        #expect(!PostgresURL.isPostgres("./postgres/indoor.sqlite"))
    }
}
