import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IndoorModel
import NIOCore
import Testing

@testable import IndoorServer

/// The answers the routes give, each a `ResponseGenerator`: their status, headers and bytes.
@Suite struct ResponsesTests {
    struct Document: Encodable {
        var name: String
        var at: Double
    }

    /// What `generator` answers, through a router.
    static func answer(_ generator: some ResponseGenerator & Sendable) async throws -> (Response, String) {
        let router = Router()
        router.get("/") { _, _ in generator }
        let app = Application(router: router)
        let (status, headers, body) = try await app.test(.router) { client in
            let response = try await client.execute(uri: "/", method: .get)
            return (response.status, response.headers, String(buffer: response.body))
        }
        return (Response(status: status, headers: headers), body)
    }

    @Test func aJSONAnswerIsTheAPIsEncodingWithItsStatus() async throws {
        let (response, body) = try await Self.answer(JSONResponse(Document(name: "a/b", at: 1.5), status: .created))
        #expect(response.status == .created)
        #expect(response.headers[.contentType] == "application/json")
        let expected = try JSONFormat.encoder().encode(Document(name: "a/b", at: 1.5))
        #expect(body == String(decoding: expected, as: UTF8.self))
    }

    @Test func bytesAreAnsweredAsTheyAreWithTheirTypeFirstThenTheOtherHeaders() async throws {
        let (response, body) = try await Self.answer(
            BytesResponse(Data("<svg/>".utf8), type: "image/svg+xml", headers: [.cacheControl: "no-cache"]))
        #expect(response.status == .ok)
        #expect(body == "<svg/>")
        #expect(response.headers[.contentType] == "image/svg+xml")
        #expect(response.headers[.cacheControl] == "no-cache")
        let names = response.headers.map(\.name)
        let type = try #require(names.firstIndex(of: .contentType))
        let cache = try #require(names.firstIndex(of: .cacheControl))
        #expect(type < cache)
    }

    @Test func anAssetIsNeverCachedWithoutAskingAgain() async throws {
        let (response, body) = try await Self.answer(AssetResponse("body{}", type: "text/css; charset=utf-8"))
        #expect(response.status == .ok)
        #expect(body == "body{}")
        #expect(response.headers[.contentType] == "text/css; charset=utf-8")
        #expect(response.headers[.cacheControl] == "no-cache")
    }
}
