/// The map page and its script and style, served by the server itself (no CDN, no build step). The files are
/// `Resources/map.html`, `Resources/map.css` and `Resources/map.js`, embedded in the binary when it is built.
///
/// The page takes `?venue=ID&key=READ_KEY` (the key is kept in the browser's local storage), draws the venue's
/// floor plan as SVG (outline, walls, nodes, zones, and the floor connections that reach the chosen floor,
/// labelled by kind) for the chosen floor, moves the devices live from `/v1/stream` with their accuracy circles
/// and held rooms (the `room` of the device list and of live fixes), and lists the zone activity with dwell times.
enum MapAssets {
    /// The page, `GET /`.
    static let html = String(decoding: PackageResources.map_html, as: UTF8.self)
    /// The style sheet, `GET /assets/map.css`.
    static let style = String(decoding: PackageResources.map_css, as: UTF8.self)
    /// The script, `GET /assets/map.js`.
    static let script = String(decoding: PackageResources.map_js, as: UTF8.self)
}
