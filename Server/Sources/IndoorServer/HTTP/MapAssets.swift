/// The map page and its script and style, served by the server itself (no CDN, no build step). The files are
/// `Resources/map.html`, `Resources/map.css` and `Resources/map.js`, embedded in the binary when it is built.
///
/// The page takes `?venue=ID&key=READ_KEY` (the key is kept in the browser's local storage), draws the venue's
/// floor plan as SVG (outline, walls, nodes, zones, and the floor connections that reach the chosen floor,
/// labelled by kind) for the chosen floor, moves the devices live from `/v1/stream` with their accuracy circles
/// and held rooms (the `room` of the device list and of live fixes), and lists the zone activity with dwell times.
/// The plan zooms (wheel about the pointer, pinch, `+` `−`, buttons) and pans (drag, arrow keys), `0` fits it; the
/// labels keep their size on screen and are laid out so that none covers another: room names inside their rooms
/// (shortened with "…" or left to the tooltip), device labels around their markers (docs/SERVER.md, "The map").
/// With an admin key (asked for in the page, kept in local storage, sent in a header) the page edits the venue:
/// nodes, rooms, walls and the anchor by clicking the plan, undo, and a save that `PUT`s the whole venue and shows a
/// refusal at the item its JSON path names (docs/SERVER.md, "Editing a venue"); each floor's plan image
/// (``FloorImage``) is drawn under the plan where its placement puts it, and the editor uploads and places it.
enum MapAssets {
    /// The page, `GET /`.
    static let html = String(decoding: PackageResources.map_html, as: UTF8.self)
    /// The style sheet, `GET /assets/map.css`.
    static let style = String(decoding: PackageResources.map_css, as: UTF8.self)
    /// The script, `GET /assets/map.js`.
    static let script = String(decoding: PackageResources.map_js, as: UTF8.self)
}
