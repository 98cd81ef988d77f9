import HTTPTypes
import Hummingbird
import NIOCore

/// The map page and its style sheet and script modules, served by the server itself (no CDN, no build step). The
/// files are `Resources/map.html`, `Resources/map.css` and the ES modules `Resources/*.js` (``files`` lists them;
/// `main.js` is the page's entry), embedded in the binary when it is built.
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
    /// One file under `/assets/`: its bytes and its `Content-Type`.
    struct Asset: Sendable {
        /// The file's bytes, as embedded.
        let bytes: [UInt8]
        /// The `Content-Type` it is served with.
        let contentType: String
    }

    /// The page, `GET /`.
    static let html = String(decoding: PackageResources.map_html, as: UTF8.self)

    private static let script = "text/javascript; charset=utf-8"

    /// The style sheet and the script modules by file name, each `GET /assets/{file}`.
    static let files: [String: Asset] = [
        "map.css": Asset(bytes: PackageResources.map_css, contentType: "text/css; charset=utf-8"),
        "main.js": Asset(bytes: PackageResources.main_js, contentType: script),
        "api.js": Asset(bytes: PackageResources.api_js, contentType: script),
        "address-key.js": Asset(bytes: PackageResources.address_key_js, contentType: script),
        "state.js": Asset(bytes: PackageResources.state_js, contentType: script),
        "geometry.js": Asset(bytes: PackageResources.geometry_js, contentType: script),
        "layout.js": Asset(bytes: PackageResources.layout_js, contentType: script),
        "format.js": Asset(bytes: PackageResources.format_js, contentType: script),
        "view.js": Asset(bytes: PackageResources.view_js, contentType: script),
        "zoom.js": Asset(bytes: PackageResources.zoom_js, contentType: script),
        "labels.js": Asset(bytes: PackageResources.labels_js, contentType: script),
        "plan.js": Asset(bytes: PackageResources.plan_js, contentType: script),
        "floor-image.js": Asset(bytes: PackageResources.floor_image_js, contentType: script),
        "activity.js": Asset(bytes: PackageResources.activity_js, contentType: script),
        "stream.js": Asset(bytes: PackageResources.stream_js, contentType: script),
        "viewer.js": Asset(bytes: PackageResources.viewer_js, contentType: script),
        "drawers.js": Asset(bytes: PackageResources.drawers_js, contentType: script),
        "survey.js": Asset(bytes: PackageResources.survey_js, contentType: script),
        "survey-plan.js": Asset(bytes: PackageResources.survey_plan_js, contentType: script),
        "history.js": Asset(bytes: PackageResources.history_js, contentType: script),
        "history-plan.js": Asset(bytes: PackageResources.history_plan_js, contentType: script),
        "report.js": Asset(bytes: PackageResources.report_js, contentType: script),
        "editor.js": Asset(bytes: PackageResources.editor_js, contentType: script),
        "editor-state.js": Asset(bytes: PackageResources.editor_state_js, contentType: script),
        "editor-form.js": Asset(bytes: PackageResources.editor_form_js, contentType: script),
        "editor-items.js": Asset(bytes: PackageResources.editor_items_js, contentType: script),
        "editor-anchor.js": Asset(bytes: PackageResources.editor_anchor_js, contentType: script),
        "editor-image.js": Asset(bytes: PackageResources.editor_image_js, contentType: script),
        "editor-pointer.js": Asset(bytes: PackageResources.editor_pointer_js, contentType: script),
        "editor-save.js": Asset(bytes: PackageResources.editor_save_js, contentType: script),
        "editor-paint.js": Asset(bytes: PackageResources.editor_paint_js, contentType: script),
    ]

    /// The answer to `GET /assets/{file}`: the file with its type, revalidated by the browser each time
    /// (`Cache-Control: no-cache`).
    ///
    /// - Throws: ``APIError`` 404 naming the field `file` when no asset has that name.
    static func response(for file: String) throws -> Response {
        guard let asset = files[file] else {
            throw APIError.notFound(field: "file", "no map asset '\(file)'")
        }
        var headers = HTTPFields()
        headers[.contentType] = asset.contentType
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }
}
