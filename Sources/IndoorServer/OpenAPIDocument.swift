/// The OpenAPI 3.1 document of the API, served at `/openapi.json`.
public enum OpenAPIDocument {
    /// The document.
    public static let json = "{}"
}
