/// The OpenAPI 3.1 document of the API, served at `/openapi.json`: the file `Resources/openapi.json` (also
/// `docs/openapi.json`), embedded in the binary when it is built. A test checks that every route of the router is
/// in it, and that the answers conform to its schemas.
public enum OpenAPIDocument {
    /// The document.
    public static let json = String(decoding: PackageResources.openapi_json, as: UTF8.self)
}
