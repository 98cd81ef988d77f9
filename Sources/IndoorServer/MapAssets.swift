/// The map page and its script and style, served by the server itself (no CDN).
enum MapAssets {
    static let html = "<!doctype html>"
    static let script = ""
    static let style = ""
}
