"use strict";
const params = new URLSearchParams(location.search);
// The read key comes once in the address (`?key=`), is kept in this browser's local storage and taken out of the
// address bar, so it is not left in the history, in bookmarks or in a copied link; requests carry it in a header.
const key = params.get("key") || localStorage.getItem("indoorKey") || "";
if (params.get("key")) {
  localStorage.setItem("indoorKey", params.get("key"));
  params.delete("key");
  history.replaceState(null, "", location.pathname + (params.toString() ? "?" + params.toString() : "") + location.hash);
}
const svgNS = "http://www.w3.org/2000/svg";
const map = document.getElementById("map");
const feed = document.getElementById("feed");
const statusLine = document.getElementById("status");
let venue = null, level = null, live = false;
const surveys = new Map();   // venue id -> its survey's state (GET /v1/venues: none, learning, learned, failed)
const devices = new Map();   // device id -> latest fix
const rooms = new Map();     // device id -> its held room ({state, zone, zoneName}), as the server last said
const inside = new Map();    // zone id -> Set of devices

async function api(path) {
  const response = await fetch(path, { headers: { "Authorization": "Bearer " + key } });
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(response.status + " " + (body.message || response.statusText));
  }
  return response.json();
}

function el(name, attributes, parent) {
  const node = document.createElementNS(svgNS, name);
  for (const [k, v] of Object.entries(attributes || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

const onFloor = (floor) => floor === undefined || floor === null || level === null || floor === level;
const pts = (points) => points.map(([x, y]) => x + "," + (-y)).join(" ");

// The extent [minX, minY, maxX, maxY] (metres, y up) of what `keep` lets through: floor outlines, nodes, zone
// fences and connections; null when there is nothing.
function extent(keepFloor, keepConnection) {
  const xs = [], ys = [];
  const add = ([x, y]) => { xs.push(x); ys.push(y); };
  const addShape = (shape) => {
    if (shape.polygon) shape.polygon.forEach(add);
    if (shape.center) { add([shape.center[0] - shape.radius, shape.center[1] - shape.radius]);
                        add([shape.center[0] + shape.radius, shape.center[1] + shape.radius]); }
  };
  for (const f of venue.floors || []) if (keepFloor(f.level)) (f.outline || []).forEach(add);
  for (const n of venue.nodes || []) if (keepFloor(n.floor)) add([n.x, n.y]);
  for (const z of venue.zones || []) for (const f of z.fences || []) if (keepFloor(f.floor)) addShape(f);
  for (const c of venue.connections || []) if (keepConnection(c)) addShape(c);
  if (!xs.length) return null;
  return [Math.min(...xs) - 2, Math.min(...ys) - 2, Math.max(...xs) + 2, Math.max(...ys) + 2];
}
// The chosen floor's extent, else the whole venue's, else 20 m around the origin.
function bounds() {
  return extent(onFloor, (c) => level === null || (c.levels || []).includes(level))
    || extent(() => true, () => true) || [-10, -10, 10, 10];
}

// ---- The view: zoom and pan. A point (x, y) in metres is drawn at (x·scale + view.x, −y·scale + view.y) pixels.
// The plan is one group scaled by this; labels and device markers are drawn in pixels at the projected points,
// so they keep their size at every zoom.
const view = { scale: 1, x: 0, y: 0, fitScale: 1, fitted: true };
const project = (x, y) => [x * view.scale + view.x, -y * view.scale + view.y];
function size() {
  const box = map.getBoundingClientRect();
  return [box.width, box.height];
}
function fit() {
  if (!venue) return;
  const [minX, minY, maxX, maxY] = bounds();
  const [width, height] = size();
  const scale = Math.max(1e-6, Math.min(width / (maxX - minX), height / (maxY - minY))) || 1;
  view.scale = view.fitScale = scale;
  view.x = width / 2 - (minX + maxX) / 2 * scale;
  view.y = height / 2 + (minY + maxY) / 2 * scale;
  view.fitted = true;
  viewChanged();
}
// Zooms by `factor` about the pixel (px, py) of the map, which stays where it is; from a quarter of the fitted
// scale to 64 times it.
function zoomAt(factor, px, py) {
  const scale = Math.min(view.fitScale * 64, Math.max(view.fitScale / 4, view.scale * factor));
  const f = scale / view.scale;
  view.x = px - (px - view.x) * f;
  view.y = py - (py - view.y) * f;
  view.scale = scale;
  view.fitted = false;
  viewChanged();
}
function zoomCentre(factor) { const [w, h] = size(); zoomAt(factor, w / 2, h / 2); }
function pan(dx, dy) { view.x += dx; view.y += dy; view.fitted = false; viewChanged(); }
// While the view moves, markers jump with it instead of gliding.
let settleTimer = 0;
function viewChanged() {
  map.classList.add("moving");
  clearTimeout(settleTimer);
  settleTimer = setTimeout(() => map.classList.remove("moving"), 250);
  render();
}

let frame = 0;
function render() { if (!frame) frame = requestAnimationFrame(() => { frame = 0; paint(); }); }
function paint() {
  const viewport = document.getElementById("viewport");
  if (!venue || !viewport) return;
  viewport.setAttribute("transform", "matrix(" + view.scale + " 0 0 " + view.scale + " " + view.x + " " + view.y + ")");
  map.dataset.scale = view.scale.toFixed(4);
  layoutLabels();
  if (edit) paintEditor();
}

// ---- Drawing the plan.
let placeNames = [];   // the room and connection labels: {text, name, shape, kind} (shape in metres)
// The name a room is shown by: without the chosen floor ("Room N1 (floor 0)" on floor 0 → "Room N1").
function shownName(name) {
  if (level === null || !name) return name || "";
  const floor = (venue.floors || []).find((f) => f.level === level);
  let out = name.replace(new RegExp("[\\s,·–-]*[(\\[]?\\s*(?:floor|level)\\s*" + String(level).replace("-", "\\-")
    + "\\s*[)\\]]?\\s*$", "i"), "");
  if (floor && floor.name) {
    const suffix = floor.name.toLowerCase();
    for (const form of [" (" + suffix + ")", " · " + suffix, " - " + suffix, ", " + suffix])
      if (out.toLowerCase().endsWith(form)) out = out.slice(0, -form.length);
  }
  return out.trim() || name;
}
const shapeOf = (s) => s.polygon ? { polygon: s.polygon } : s.center ? { center: s.center, radius: s.radius } : null;

// Draws the chosen floor's plan; fits it to the map unless `refit` is false (the editor keeps the view).
function drawPlan(refit = true) {
  map.innerHTML = "";
  placeNames = [];
  lastPlace.clear();
  const viewport = el("g", { id: "viewport" }, map);
  el("g", { id: "backdrop" }, viewport);   // the floor's plan image, under the plan
  const plan = el("g", { id: "plan" }, viewport);
  el("g", { id: "accuracy" }, map);   // the devices' accuracy circles, under every label
  const labels = el("g", { id: "labels" }, map);
  const floor = (venue.floors || []).find((f) => f.level === level);
  if (floor) {
    if (floor.outline && floor.outline.length) el("polygon", { class: "outline", points: pts(floor.outline) }, plan);
    for (const [[x1, y1], [x2, y2]] of floor.walls || [])
      el("line", { class: "wall", x1, y1: -y1, x2, y2: -y2 }, plan);
  }
  for (const z of venue.zones || []) {
    let named = null, largest = -1;
    for (const fence of z.fences || []) {
      if (!onFloor(fence.floor)) continue;
      let shape;
      if (fence.polygon) shape = el("polygon", { class: "zone", points: pts(fence.polygon) }, plan);
      else if (fence.center) shape = el("circle", { class: "zone", cx: fence.center[0], cy: -fence.center[1], r: fence.radius }, plan);
      if (!shape) continue;
      shape.dataset.zone = z.id;
      el("title", {}, shape).textContent = z.name || z.id;
      const area = fence.polygon ? Math.abs(polygonArea(fence.polygon)) : Math.PI * fence.radius * fence.radius;
      if (area > largest) { largest = area; named = fence; }
    }
    // One name per room and floor, in its largest fence.
    if (named) {
      const text = el("text", { class: "label off" }, labels);
      text.dataset.zone = z.id;
      placeNames.push({ text, name: shownName(z.name || z.id), shape: shapeOf(named), kind: "room", area: largest });
    }
    for (const line of z.geolines || []) if (onFloor(line.floor)) el("polyline", { class: "geoline", points: pts(line.points) }, plan);
  }
  for (const c of venue.connections || []) {
    if (level !== null && !(c.levels || []).includes(level)) continue;
    let shape;
    if (c.polygon) shape = el("polygon", { class: "connection", points: pts(c.polygon) }, plan);
    else if (c.center) shape = el("circle", { class: "connection", cx: c.center[0], cy: -c.center[1], r: c.radius }, plan);
    if (!shape) continue;
    const kind = c.kind || "stairs";
    shape.dataset.connection = c.id;
    shape.dataset.kind = kind;
    el("title", {}, shape).textContent = kind + " " + c.id + ": floors " + (c.levels || []).join(", ");
    const label = el("text", { class: "connection-label off" }, labels);
    label.dataset.connection = c.id;
    label.textContent = kind;
    // A connection's label is its kind, shown whole or not at all; it goes before the rooms' names.
    placeNames.unshift({ text: label, name: kind, shape: shapeOf(c), kind: "connection", whole: true });
  }
  for (const n of venue.nodes || []) {
    if (!onFloor(n.floor)) continue;
    const node = el("circle", { class: "node", cx: n.x, cy: -n.y, r: .35 }, plan);
    node.dataset.node = n.id;
    el("title", {}, node).textContent = n.id;
  }
  markNodes();
  el("g", { id: "devices" }, map);
  el("g", { id: "handles" }, map);   // the editor's handles, drawn in pixels over everything
  for (const fix of devices.values()) drawDevice(fix);
  markZones();
  showFloorImage();
  if (refit) fit(); else render();
}

// ---- The floor's plan image (PUT /v1/venues/{id}/floors/{level}/image), drawn under the plan where its placement
// puts it: two image points (pixels, y down), their distance in metres, the venue point under the first and a
// rotation (degrees counter-clockwise). Fetched with the key in a header and shown from a blob: address.
const floorImages = new Map();   // "venue/level" -> {info, url, width, height}, or null when the floor has none
const imageKey = () => venue.id + "/" + level;
function imagePath(id, lvl) { return "/v1/venues/" + encodeURIComponent(id) + "/floors/" + encodeURIComponent(lvl) + "/image"; }
async function loadFloorImage(id, lvl) {
  const name = id + "/" + lvl;
  if (floorImages.has(name)) return floorImages.get(name);
  floorImages.set(name, null);
  const headers = { "Authorization": "Bearer " + key };
  const answer = await fetch(imagePath(id, lvl) + "/placement", { headers });
  if (!answer.ok) return null;
  const info = await answer.json();
  const bytes = await fetch(imagePath(id, lvl), { headers });
  if (!bytes.ok) return null;
  const url = URL.createObjectURL(await bytes.blob());
  const picture = new Image();
  picture.src = url;
  await picture.decode().catch(() => {});
  const entry = { info, url, width: picture.naturalWidth || 1000, height: picture.naturalHeight || 1000 };
  floorImages.set(name, entry);
  return entry;
}
// The placement in force: the stored one, else the image's top edge across the floor's width at its top-left.
function placementOf(entry) {
  if (entry.info.placement) return entry.info.placement;
  const [minX, , maxX, maxY] = bounds();
  return { imagePoints: [[0, 0], [entry.width, 0]], distanceMeters: Math.max(1, maxX - minX - 4), at: [minX + 2, maxY - 2],
           rotationDegrees: 0 };
}
// The matrix (a, b, c, d, e, f) from image pixels (u, v) to the plan's drawing units (x, −y).
function imageMatrix(p) {
  const [[u1, v1], [u2, v2]] = p.imagePoints;
  const s = p.distanceMeters / Math.hypot(u2 - u1, v2 - v1);
  const t = (p.rotationDegrees || 0) * Math.PI / 180;
  const [x0, y0] = p.at || [0, 0];
  const a = s * Math.cos(t), c = s * Math.sin(t), b = -s * Math.sin(t), d = s * Math.cos(t);
  return [a, b, c, d, x0 - a * u1 - c * v1, -y0 - b * u1 - d * v1];
}
function drawFloorImage(entry) {
  const backdrop = document.getElementById("backdrop");
  if (!backdrop) return;
  backdrop.innerHTML = "";
  map.classList.toggle("has-image", !!entry);
  if (!entry) return;
  const m = imageMatrix(placementOf(entry));
  const picture = el("image", { href: entry.url, x: 0, y: 0, width: entry.width, height: entry.height,
    preserveAspectRatio: "none", class: "floor-image", transform: "matrix(" + m.join(" ") + ")" }, backdrop);
  picture.dataset.placed = entry.info.placement ? "1" : "0";
}
function showFloorImage() {
  if (!venue || level === null) return;
  const id = venue.id, lvl = level;
  if (floorImages.has(id + "/" + lvl)) { drawFloorImage(floorImages.get(id + "/" + lvl)); return; }
  loadFloorImage(id, lvl).then((entry) => {
    if (venue && venue.id === id && level === lvl) drawFloorImage(entry);
  }).catch(() => {});
}

// ---- Label layout: every label is a box in pixels; a label is shown only where its box overlaps no other shown
// label's. Connection kinds first, then room names (smaller rooms first), each inside its own shape, shortened
// with "…" when the whole name does not fit, hidden (the room's tooltip names it) when not even three letters
// do; then device labels, each at the first free place of eight around its marker.
const measureContext = document.createElement("canvas").getContext("2d");
const fonts = new Map();      // label class -> {font, top, height}: the font and the text box's top and height
const widths = new Map();     // font + text -> width in pixels
function fontOf(text) {
  const kind = text.getAttribute("class").replace(" off", "");
  let font = fonts.get(kind);
  if (!font) {
    const style = getComputedStyle(text);
    const probe = el("text", { class: kind, x: 0, y: 0 }, text.parentNode);
    probe.textContent = "Hg";
    const box = probe.getBBox();
    probe.remove();
    font = { font: style.fontStyle + " " + style.fontWeight + " " + style.fontSize + " " + style.fontFamily,
             top: box.y, height: box.height || parseFloat(style.fontSize) * 1.2 };
    if (font.height > 0) fonts.set(kind, font);
  }
  return font;
}
function widthOf(font, text) {
  const key = font.font + "\n" + text;
  let width = widths.get(key);
  if (width === undefined) {
    if (widths.size > 5000) widths.clear();
    measureContext.font = font.font;
    width = measureContext.measureText(text).width;
    widths.set(key, width);
  }
  return width;
}
const PAD = 2;   // pixels kept free around each label's text
const overlaps = (a, b) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
const free = (box, placed) => !placed.some((p) => overlaps(box, p));

function polygonArea(points) {
  let a = 0;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++)
    a += points[j][0] * points[i][1] - points[i][0] * points[j][1];
  return a / 2;
}
function centroid(points) {
  let a = 0, cx = 0, cy = 0;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const cross = points[j][0] * points[i][1] - points[i][0] * points[j][1];
    a += cross; cx += (points[j][0] + points[i][0]) * cross; cy += (points[j][1] + points[i][1]) * cross;
  }
  if (Math.abs(a) < 1e-9) return points.reduce(([x, y], p) => [x + p[0] / points.length, y + p[1] / points.length], [0, 0]);
  return [cx / (3 * a), cy / (3 * a)];
}
function pointIn(points, x, y) {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i], [xj, yj] = points[j];
    if ((yi > y) !== (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
// Whether the segment crosses the inside of the box (Liang–Barsky clipping).
function segmentCrosses(box, [x1, y1], [x2, y2]) {
  let t0 = 0, t1 = 1;
  const dx = x2 - x1, dy = y2 - y1;
  for (const [p, q] of [[-dx, x1 - box.l], [dx, box.r - x1], [-dy, y1 - box.t], [dy, box.b - y1]]) {
    if (p === 0) { if (q <= 0) return false; continue; }
    const t = q / p;
    if (p < 0) { if (t > t1) return false; if (t > t0) t0 = t; }
    else { if (t < t0) return false; if (t < t1) t1 = t; }
  }
  return t1 - t0 > 1e-9;
}
// Whether the box lies inside the shape (in pixels: {polygon} or {cx, cy, r}).
function boxInside(box, shape) {
  const corners = [[box.l, box.t], [box.r, box.t], [box.r, box.b], [box.l, box.b]];
  if (shape.polygon) {
    const p = shape.polygon;
    if (!corners.every(([x, y]) => pointIn(p, x, y))) return false;
    for (let i = 0, j = p.length - 1; i < p.length; j = i++) if (segmentCrosses(box, p[j], p[i])) return false;
    return true;
  }
  return corners.every(([x, y]) => Math.hypot(x - shape.cx, y - shape.cy) <= shape.r);
}
// Candidate centres for a label inside a shape (pixels): its centroid, then points of a grid over the part of it
// on the map (width × height), nearest the centroid first.
function anchors(shape, width, height) {
  if (!shape.polygon) return [[shape.cx, shape.cy]];
  const p = shape.polygon;
  const [cx, cy] = centroid(p);
  const xs = p.map((q) => q[0]), ys = p.map((q) => q[1]);
  const minX = Math.max(0, Math.min(...xs)), maxX = Math.min(width, Math.max(...xs));
  const minY = Math.max(0, Math.min(...ys)), maxY = Math.min(height, Math.max(...ys));
  const out = [[cx, cy], [(minX + maxX) / 2, (minY + maxY) / 2]];
  const grid = [];
  for (let i = 1; i < 6; i++) for (let j = 1; j < 6; j++) {
    const x = minX + (maxX - minX) * i / 6, y = minY + (maxY - minY) * j / 6;
    if (pointIn(p, x, y)) grid.push([x, y]);
  }
  // Nearest first; of as near ones, the one straight above or below the centre, then the upper one.
  const key = ([x, y]) => [Math.round(Math.hypot(x - cx, y - cy)), Math.round(Math.abs(x - cx)), y];
  grid.sort((a, b) => { const [p, q] = [key(a), key(b)]; return p[0] - q[0] || p[1] - q[1] || p[2] - q[2]; });
  return out.concat(grid.slice(0, 10));
}
const shortened = (letters, n) => n >= letters.length ? letters.join("") : letters.slice(0, n).join("").trimEnd() + "…";

// Places one room or connection name inside its shape; returns its box or null (hidden).
function placeName(item, placed, width, height) {
  const { text } = item;
  const shape = item.shape.polygon ? { polygon: item.shape.polygon.map(([x, y]) => project(x, y)) }
    : (([cx, cy]) => ({ cx, cy, r: item.shape.radius * view.scale }))(project(item.shape.center[0], item.shape.center[1]));
  const xs = shape.polygon ? shape.polygon.map((q) => q[0]) : [shape.cx - shape.r, shape.cx + shape.r];
  const ys = shape.polygon ? shape.polygon.map((q) => q[1]) : [shape.cy - shape.r, shape.cy + shape.r];
  const font = fontOf(text);
  text.textContent = item.name;
  if (Math.max(...xs) < 0 || Math.min(...xs) > width || Math.max(...ys) < 0 || Math.min(...ys) > height
      || Math.max(...xs) - Math.min(...xs) < 12 || Math.max(...ys) - Math.min(...ys) < font.height) return null;
  const letters = Array.from(item.name);
  const least = item.whole ? letters.length : Math.min(letters.length, 3);
  const boxAt = ([x, y], n) => {
    const w = widthOf(font, shortened(letters, n));
    return { l: x - w / 2 - PAD, r: x + w / 2 + PAD, t: y - font.height / 2, b: y + font.height / 2 };
  };
  // A name goes where it is wholly on screen: inside its shape and inside the map.
  const seen = (box) => box.l >= 0 && box.t >= 0 && box.r <= width && box.b <= height;
  const fits = (anchor, n) => { const box = boxAt(anchor, n); return seen(box) && boxInside(box, shape) && free(box, placed); };
  const candidates = anchors(shape, width, height);
  // The whole name where it covers no node marker, if there is such a place; else wherever it fits best.
  for (const anchor of candidates) {
    const box = boxAt(anchor, letters.length);
    if (seen(box) && boxInside(box, shape) && free(box, placed) && free(box, nodeMarks)) return show(box, letters.length);
  }
  let best = null, bestN = 0;
  for (const anchor of candidates) {
    if (!fits(anchor, least)) continue;
    // The longest form that fits at this anchor (a longer form's box holds a shorter one's: fitting is monotonic).
    let lo = least, hi = letters.length;
    while (lo < hi) { const mid = Math.ceil((lo + hi) / 2); if (fits(anchor, mid)) lo = mid; else hi = mid - 1; }
    if (lo > bestN) { best = anchor; bestN = lo; }
    if (bestN === letters.length) break;
  }
  return best ? show(boxAt(best, bestN), bestN) : null;
  function show(box, n) {
    text.textContent = shortened(letters, n);
    text.setAttribute("x", (box.l + PAD).toFixed(1));
    text.setAttribute("y", (box.t - font.top).toFixed(1));
    return box;
  }
}

let nodeMarks = [];   // the node markers' boxes in pixels, which room names keep clear of when they can
function layoutLabels() {
  const [width, height] = size();
  // The zoom buttons sit over the map: no label goes under them.
  const buttons = document.getElementById("zoom").getBoundingClientRect(), area = map.getBoundingClientRect();
  const placed = [{ l: buttons.left - area.left - 4, r: buttons.right - area.left + 4,
                    t: buttons.top - area.top - 4, b: buttons.bottom - area.top + 4 }];
  nodeMarks = [];
  for (const n of venue.nodes || []) {
    if (!onFloor(n.floor)) continue;
    const [x, y] = project(n.x, n.y), r = Math.max(2, .35 * view.scale);
    nodeMarks.push({ l: x - r, r: x + r, t: y - r, b: y + r });
  }
  // Connection kinds, then rooms from the smallest (a big zone's name finds room around the small ones' in it).
  const order = placeNames.filter((p) => p.kind === "connection")
    .concat(placeNames.filter((p) => p.kind === "room").sort((a, b) => a.area - b.area));
  for (const item of order) {
    const box = placeName(item, placed, width, height);
    item.text.classList.toggle("off", !box);
    if (box) placed.push(box);
  }
  layoutDevices(placed, width, height);
}

// Eight places around a marker of radius r, for a label w × h: right, left, the four corners, above, below.
const DOT = 6;
function around(w, h) {
  const r = DOT + 3, d = r * .7;
  return [[r, -h / 2], [-r - w, -h / 2], [d, -d - h], [d, d], [-d - w, -d - h], [-d - w, d], [-w / 2, -r - h], [-w / 2, r]];
}
const lastPlace = new Map();   // device id -> the index in `around` its label had, tried first next time

function layoutDevices(placed, width, height) {
  const layer = document.getElementById("devices");
  if (!layer) return;
  const groups = Array.from(layer.children).sort((a, b) => a.dataset.device < b.dataset.device ? -1 : 1);
  const marks = [];
  for (const g of groups) {
    const [x, y] = project(Number(g.dataset.x), Number(g.dataset.y));
    g._at = [x, y];
    marks.push({ l: x - DOT, r: x + DOT, t: y - DOT, b: y + DOT, device: g.dataset.device });
    const transform = "translate(" + x.toFixed(1) + "px, " + y.toFixed(1) + "px)";
    const circle = g._accuracy;
    circle.setAttribute("r", (Math.max(.3, Number(g.dataset.accuracy) || 1) * view.scale).toFixed(1));
    for (const mark of [g, circle]) {
      if (!mark.dataset.placed) {
        // A new marker appears where it is instead of gliding in from the corner.
        mark.style.transition = "none";
        mark.style.transform = transform;
        mark.getBoundingClientRect();
        mark.style.transition = "";
        mark.dataset.placed = "1";
      } else if (mark.style.transform !== transform) mark.style.transform = transform;
    }
  }
  const shown = [];   // {g, box, at, place, w}
  const hidden = [];
  for (const g of groups) {
    const text = g.querySelector("text");
    const [x, y] = g._at;
    const label = g.dataset.label;
    text.textContent = label;
    const font = fontOf(text);
    const w = widthOf(font, label), h = font.height;
    const places = around(w, h);
    const box = (i, wide) => {
      const [dx, dy] = i === undefined ? places[0] : around(wide, h)[i];
      return { l: x + dx - PAD, r: x + dx + wide + PAD, t: y + dy, b: y + dy + h };
    };
    const order = [...places.keys()];
    const last = lastPlace.get(g.dataset.device);
    if (last !== undefined) { order.splice(order.indexOf(last), 1); order.unshift(last); }
    let chosen = -1;
    if (x > -50 && x < width + 50 && y > -50 && y < height + 50) {
      // First where it covers no label, no other device's marker and no node; else no label and no other
      // device's marker; else no label.
      const others = marks.filter((m) => m.device !== g.dataset.device);
      const seen = (b) => b.l >= 0 && b.t >= 0 && b.r <= width && b.b <= height;
      for (const [avoid, onScreen] of [[others.concat(nodeMarks), true], [others, true], [[], true], [[], false]]) {
        chosen = order.find((i) => (!onScreen || seen(box(i, w))) && free(box(i, w), placed) && free(box(i, w), avoid)) ?? -1;
        if (chosen >= 0) break;
      }
    }
    const at = chosen < 0 ? 0 : chosen;
    const [dx, dy] = places[at];
    text.setAttribute("x", dx.toFixed(1));
    text.setAttribute("y", (dy - font.top).toFixed(1));
    text.classList.toggle("off", chosen < 0);
    if (chosen >= 0) {
      lastPlace.set(g.dataset.device, chosen);
      const b = box(chosen, w);
      placed.push(b);
      shown.push({ g, box: b, at: chosen, font, x, y, h, others: [] });
    } else hidden.push({ g, x, y });
  }
  // A hidden label counts at the nearest shown label within 60 px ("phone-2 · Lobby +3"), whose tooltip lists them.
  for (const { g, x, y } of hidden) {
    let near = null, distance = 60;
    for (const s of shown) { const d = Math.hypot(s.x - x, s.y - y); if (d < distance) { distance = d; near = s; } }
    if (near) near.others.push(g.dataset.device);
  }
  for (const s of shown) {
    const title = s.g.querySelector("title");
    title.textContent = s.g.dataset.title + (s.others.length ? "\nnear: " + s.others.join(", ") : "");
    if (!s.others.length) continue;
    const longer = s.g.dataset.label + " +" + s.others.length;
    const w = widthOf(s.font, longer);
    const [dx, dy] = around(w, s.h)[s.at];
    const box = { l: s.x + dx - PAD, r: s.x + dx + w + PAD, t: s.y + dy, b: s.y + dy + s.h };
    if (free(box, placed.filter((p) => p !== s.box))) {
      placed[placed.indexOf(s.box)] = box;
      const text = s.g.querySelector("text");
      text.textContent = longer;
      text.setAttribute("x", dx.toFixed(1));
    }
  }
  for (const { g } of hidden) g.querySelector("title").textContent = g.dataset.title;
}

// Each node's health (GET /v1/venues/{id}/nodes), asked every 10 s: a node that is offline (its gateway said so) or
// silent (nothing heard through it for a while) is drawn grey, with its status in its tooltip.
const nodeHealth = new Map();   // node id -> {status, lastHeard, sightingsPerMinute}
function markNodes() {
  for (const circle of document.querySelectorAll("circle.node")) {
    const health = nodeHealth.get(circle.dataset.node);
    if (!health) continue;
    circle.dataset.status = health.status;
    circle.classList.toggle("quiet", health.status !== "online");
    const heard = health.lastHeard ? "last heard " + new Date(health.lastHeard * 1000).toLocaleTimeString() : "never heard";
    circle.querySelector("title").textContent = circle.dataset.node + ": " + health.status + ", " + heard
      + ", " + health.sightingsPerMinute + " sightings/min";
  }
}
async function refreshNodes() {
  if (venue) {
    const id = venue.id;
    const answer = await api("/v1/venues/" + encodeURIComponent(id) + "/nodes").catch(() => null);
    if (answer && venue && venue.id === id) {
      nodeHealth.clear();
      for (const n of answer.nodes) nodeHealth.set(n.id, n);
      markNodes();
    }
  }
  setTimeout(refreshNodes, 10000);
}

function drawDevice(fix) {
  const layer = document.getElementById("devices");
  if (!layer) return;
  let group = layer.querySelector('[data-device="' + CSS.escape(fix.device) + '"]');
  if (!onFloor(fix.floor)) { if (group) { group._accuracy.remove(); group.remove(); } render(); return; }
  if (!group) {
    group = el("g", { class: "device" }, layer);
    group.dataset.device = fix.device;
    group._accuracy = el("circle", { class: "accuracy", r: 1 }, document.getElementById("accuracy"));
    group._accuracy.dataset.device = fix.device;
    el("circle", { class: "dot", r: DOT }, group);
    el("text", { class: "device-label" }, group);
    el("title", {}, group);
  }
  // The room as the label shows it: without the chosen floor, at most 24 letters.
  const full = roomText(rooms.get(fix.device));
  const letters = Array.from(shownName(full));
  const room = letters.length > 24 ? letters.slice(0, 23).join("").trimEnd() + "…" : letters.join("");
  group.dataset.label = fix.device + (room ? " · " + room : "");
  group.dataset.title = fix.device + (full ? " · room: " + full : "");
  group.querySelector("title").textContent = group.dataset.title;
  group.dataset.room = room;
  group.dataset.accuracy = fix.accuracy || 1;
  group.dataset.x = fix.x; group.dataset.y = fix.y;
  document.getElementById("count").textContent = devices.size === 1 ? "1 device" : devices.size + " devices";
  render();
}

// The held room as words: the room's name, "no room", or "room unknown"; "" when the server gave none.
function roomText(room) {
  if (!room) return "";
  if (room.state === "room") return room.zoneName || room.zone || "";
  if (room.state === "noRoom") return "no room";
  if (room.state === "unknown") return "room unknown";
  return "";
}

function markZones() {
  for (const shape of map.querySelectorAll(".zone"))
    shape.classList.toggle("occupied", (inside.get(shape.dataset.zone) || new Set()).size > 0);
}

// A venue on Unix time (from 1e9 s, 2001-09-09, on) shows the wall-clock time; a recording's venue its seconds.
const when = (t) => t >= 1e9 ? new Date(t * 1000).toLocaleTimeString() : "t = " + t.toFixed(1) + " s";
const seconds = (s) => s === undefined || s === null ? "" : s < 90 ? s.toFixed(0) + " s" : (s / 60).toFixed(1) + " min";

function addFeed(kind, zoneName, device, t, dwell, prepend) {
  const item = document.createElement("li");
  item.className = kind;
  const words = { checkIn: "checked in to", checkOut: "checked out of", dwell: "is dwelling in" }[kind] || kind;
  item.textContent = device + " " + words + " " + zoneName;
  const small = document.createElement("small");
  small.textContent = when(t) + (dwell !== undefined && dwell !== null ? " · dwell " + seconds(dwell) : "");
  item.appendChild(small);
  if (prepend) feed.prepend(item); else feed.appendChild(item);
  while (feed.children.length > 200) feed.lastChild.remove();
}

function onZone(event) {
  const set = inside.get(event.zone) || new Set();
  if (event.event === "checkIn" && event.willCheckOut !== false) set.add(event.device);
  if (event.event === "checkOut") set.delete(event.device);
  inside.set(event.zone, set);
  markZones();
  addFeed(event.event, event.zoneName, event.device, event.t, event.dwell, true);
}

// The live stream (Server-Sent Events), read with fetch so that the key travels in a header and never in a URL.
// After a break it reconnects in 2 s and resumes after the last event it had (Last-Event-ID).
let stream = null, lastEventID = null;
function connect() {
  if (stream) stream.abort();
  const controller = new AbortController();
  stream = controller;
  const id = venue.id;
  (async () => {
    while (!controller.signal.aborted) {
      try {
        const headers = { "Authorization": "Bearer " + key, "Accept": "text/event-stream" };
        if (lastEventID) headers["Last-Event-ID"] = lastEventID;
        const response = await fetch("/v1/stream?venue=" + encodeURIComponent(id), { headers, signal: controller.signal });
        if (!response.ok) throw new Error(response.status + " " + response.statusText);
        live = true; showStatus();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value.replace(/\r\n?/g, "\n");
          for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
            dispatch(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        }
      } catch (error) {
        if (controller.signal.aborted) return;
      }
      live = false; statusLine.textContent = "reconnecting…";
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  })();
}

// One event of the stream: its `event`, `id` and `data` lines; comment lines (heartbeats) are skipped.
function dispatch(block) {
  let name = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
    else if (field === "id") lastEventID = value;
  }
  if (!data.length) return;
  const payload = JSON.parse(data.join("\n"));
  if (name === "fix") {
    const fix = payload.fix;
    if (payload.room) rooms.set(fix.device, payload.room);
    devices.set(fix.device, fix);
    drawDevice(fix);
  } else if (name === "zone") {
    onZone(payload.zone);
  }
}

async function openVenue(id) {
  if (edit) stopEditing(true);
  venue = await api("/v1/venues/" + encodeURIComponent(id));
  const floors = document.getElementById("floor");
  floors.innerHTML = "";
  for (const f of venue.floors || []) floors.add(new Option(f.name || "Level " + f.level, f.level));
  level = (venue.floors || []).length ? venue.floors[0].level : null;
  devices.clear(); rooms.clear(); inside.clear(); feed.innerHTML = ""; lastEventID = null;
  nodeHealth.clear();
  for (const fix of (await api("/v1/venues/" + encodeURIComponent(id) + "/devices")).devices) {
    devices.set(fix.device, fix);
    if (fix.room) rooms.set(fix.device, fix.room);
  }
  const activity = await api("/v1/activity?venue=" + encodeURIComponent(id) + "&limit=50");
  for (const v of activity.visits) {
    if (v.checkOut === undefined || v.checkOut === null) {
      const set = inside.get(v.zone) || new Set(); set.add(v.device); inside.set(v.zone, set);
      addFeed("checkIn", v.zoneName, v.device, v.checkIn, undefined, false);
    } else {
      addFeed(v.reason === "crossing" ? "crossing" : "checkOut", v.zoneName, v.device, v.checkOut, v.dwell, false);
    }
  }
  drawPlan();
  connect();
}

document.getElementById("floor").addEventListener("change", (e) => {
  level = Number(e.target.value);
  if (edit) { edit.drawing = []; edit.selected = null; closeForm(); }
  drawPlan();
});
document.getElementById("venue").addEventListener("change", (e) => {
  // Another venue leaves the editor: unsaved changes are dropped only when the user says so.
  if (edit && edit.dirty && !confirm("Drop the changes that are not saved?")) { e.target.value = edit.id; return; }
  openVenue(e.target.value).catch(fail);
});

// ---- Zoom and pan by hand: the wheel zooms about the pointer, dragging pans (two fingers pinch), the keys + − 0
// and the arrows (when no form field has the focus), and the buttons + − and fit.
map.addEventListener("wheel", (e) => {
  e.preventDefault();
  const box = map.getBoundingClientRect();
  const delta = e.deltaY * (e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? box.height : 1);
  zoomAt(Math.min(2, Math.max(.5, Math.exp(-delta * .002))), e.clientX - box.left, e.clientY - box.top);
}, { passive: false });
const pointers = new Map();   // pointer id -> [x, y] last seen (pixels in the map)
function pointerAt(e) { const box = map.getBoundingClientRect(); return [e.clientX - box.left, e.clientY - box.top]; }
map.addEventListener("pointerdown", (e) => {
  if (e.pointerType === "mouse" && e.button !== 0) return;
  map.focus({ preventScroll: true });
  map.setPointerCapture(e.pointerId);
  if (edit && editorPointerDown(e)) return;
  pointers.set(e.pointerId, pointerAt(e));
  map.classList.add("dragging");
});
map.addEventListener("pointermove", (e) => {
  if (edit && editorPointerMove(e)) return;
  if (!pointers.has(e.pointerId)) return;
  const before = [...pointers.values()];
  pointers.set(e.pointerId, pointerAt(e));
  const after = [...pointers.values()];
  if (after.length === 1) { pan(after[0][0] - before[0][0], after[0][1] - before[0][1]); return; }
  // Two pointers: zoom by how far apart they moved, about their midpoint, and pan with the midpoint.
  const mid = (p) => [(p[0][0] + p[1][0]) / 2, (p[0][1] + p[1][1]) / 2];
  const apart = (p) => Math.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1]);
  const [m0, m1] = [mid(before), mid(after)];
  view.x += m1[0] - m0[0]; view.y += m1[1] - m0[1];
  if (apart(before) > 0) zoomAt(apart(after) / apart(before), m1[0], m1[1]); else pan(0, 0);
});
for (const type of ["pointerup", "pointercancel"]) map.addEventListener(type, (e) => {
  if (edit) editorPointerUp(e, type === "pointercancel");
  pointers.delete(e.pointerId);
  if (!pointers.size) map.classList.remove("dragging");
});
document.addEventListener("keydown", (e) => {
  if (edit && editorKey(e)) { e.preventDefault(); return; }
  if (e.ctrlKey || e.metaKey || e.altKey || !venue) return;
  if (e.target && e.target.closest && e.target.closest("input, select, textarea, [contenteditable]")) return;
  const step = 80;
  switch (e.key) {
    case "+": case "=": zoomCentre(1.4); break;
    case "-": case "_": case "−": zoomCentre(1 / 1.4); break;
    case "0": fit(); break;
    case "ArrowLeft": pan(step, 0); break;
    case "ArrowRight": pan(-step, 0); break;
    case "ArrowUp": pan(0, step); break;
    case "ArrowDown": pan(0, -step); break;
    default: return;
  }
  e.preventDefault();
});
document.getElementById("zoom-in").addEventListener("click", () => zoomCentre(1.4));
document.getElementById("zoom-out").addEventListener("click", () => zoomCentre(1 / 1.4));
document.getElementById("zoom-fit").addEventListener("click", () => fit());
// A resized map keeps its middle where it was (or fits again when the user has not zoomed or panned).
let lastSize = null;
new ResizeObserver(() => {
  const [w, h] = size();
  if (!venue || !document.getElementById("viewport")) { lastSize = [w, h]; return; }
  if (view.fitted || !lastSize) fit();
  else { view.x += (w - lastSize[0]) / 2; view.y += (h - lastSize[1]) / 2; viewChanged(); }
  lastSize = [w, h];
}).observe(map);

// ---- The venue editor (docs/SERVER.md, "Editing a venue"). With an admin key, the page edits a copy of the venue
// (the draft, drawn in place of the venue while the live devices keep moving) and saves it whole with
// `PUT /v1/venues/{id}`. Every click goes from pixels to venue metres through the view exactly (kept to 1 mm).
// The admin key is asked for in the editor and kept in this browser's local storage, like the read key; it is
// sent in a header, never in an address.
let edit = null;   // {id, original, undo, tool, selected, drawing, drag, press, hover, error, dirty, pending}
const adminKeyName = "indoorAdminKey";
const editor = document.getElementById("editor");
const mm = (v) => Math.round(v * 1000) / 1000;
// The venue metres [x, y] at the pixel (px, py) of the map: the inverse of `project`.
const toVenue = (px, py) => [(px - view.x) / view.scale, (view.y - py) / view.scale];
// For tests and tools: the view's transform and conversions between venue metres and client (page) pixels.
window.indoorMap = {
  transform() { const box = map.getBoundingClientRect(); return { scale: view.scale, x: view.x, y: view.y, left: box.left, top: box.top }; },
  toScreen(x, y) { const box = map.getBoundingClientRect(); const [px, py] = project(x, y); return [px + box.left, py + box.top]; },
  toVenue(clientX, clientY) { const box = map.getBoundingClientRect(); return toVenue(clientX - box.left, clientY - box.top); },
  editing: () => !!edit,
  draft: () => edit ? venue : null,
};

function startEditing() {
  if (!venue || edit) return;
  if (!localStorage.getItem(adminKeyName)) { askKey(); return; }
  edit = { id: venue.id, original: venue, undo: [], tool: "select", selected: null, drawing: [], drag: null,
           press: null, hover: null, error: null, dirty: false, pending: null };
  venue = JSON.parse(JSON.stringify(venue));
  editor.hidden = false;
  document.getElementById("edit-key").hidden = true;
  document.getElementById("edit-panel").hidden = false;
  document.getElementById("edit").setAttribute("aria-pressed", "true");
  document.body.classList.add("editing");
  setTool("select");
  showState("Editing " + (venue.name || venue.id) + ": nothing changed yet.");
  drawPlan(false);
}
function askKey() {
  editor.hidden = false;
  document.getElementById("edit-panel").hidden = true;
  const form = document.getElementById("edit-key");
  form.hidden = false;
  document.getElementById("edit-key-input").focus();
}
// Leaves the editor; unsaved changes are dropped (after asking, unless `quietly`).
function stopEditing(quietly) {
  if (!edit) return;
  if (!quietly && edit.dirty && !confirm("Drop the changes that are not saved?")) return;
  venue = edit.original;
  edit = null;
  editor.hidden = true;
  document.getElementById("edit").setAttribute("aria-pressed", "false");
  document.body.classList.remove("editing");
  map.classList.remove("tool");
  drawPlan(false);
}
document.getElementById("edit").addEventListener("click", () => edit ? stopEditing(false) : startEditing());
document.getElementById("edit-key").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = document.getElementById("edit-key-input");
  if (!input.value.trim()) return;
  localStorage.setItem(adminKeyName, input.value.trim());
  input.value = "";
  document.getElementById("edit-key").hidden = true;
  if (edit) { document.getElementById("edit-panel").hidden = false; save(); } else startEditing();
});
document.getElementById("edit-key-cancel").addEventListener("click", () => {
  document.getElementById("edit-key").hidden = true;
  if (edit) document.getElementById("edit-panel").hidden = false; else editor.hidden = true;
});
for (const button of document.querySelectorAll("#edit-tools [data-tool]"))
  button.addEventListener("click", () => setTool(button.dataset.tool));
document.getElementById("edit-undo").addEventListener("click", () => undo());
document.getElementById("edit-save").addEventListener("click", () => save());
document.getElementById("edit-close").addEventListener("click", () => stopEditing(false));
document.getElementById("edit-add-node").addEventListener("click", () => {
  const [w, h] = size();
  const [x, y] = toVenue(w / 2, h / 2);
  nodeForm(null, mm(x), mm(y));
});

// ---- The floor's image, from the editor: uploaded, placed and removed at once (not part of the draft or undo).
async function adminFetch(path, options) {
  const admin = localStorage.getItem(adminKeyName);
  if (!admin) { askKey(); throw new Error("an admin key is needed"); }
  const response = await fetch(path, Object.assign({}, options, {
    headers: Object.assign({ "Authorization": "Bearer " + admin }, options.headers || {}) }));
  const body = await response.json().catch(() => null);
  if (response.status === 401 || response.status === 403) { localStorage.removeItem(adminKeyName); askKey(); }
  if (!response.ok) throw new Error((body && body.message) || response.status + " " + response.statusText);
  return body;
}
function forgetImage() {
  const entry = floorImages.get(imageKey());
  if (entry && entry.url) URL.revokeObjectURL(entry.url);
  floorImages.delete(imageKey());
}
document.getElementById("edit-image").addEventListener("change", async (e) => {
  const file = e.target.files && e.target.files[0];
  if (!file || !edit || level === null) return;
  if (file.size > 10 * 1024 * 1024) { showState("The image is larger than 10 MiB: not uploaded."); return; }
  showState("Uploading the floor plan image…");
  try {
    await adminFetch(imagePath(edit.id, level), { method: "PUT", body: file,
      headers: { "Content-Type": file.type || "application/octet-stream" } });
    forgetImage();
    await loadFloorImage(edit.id, level);
    drawFloorImage(floorImages.get(imageKey()));
    showState("Image uploaded: place it by two points and the distance between them (Place image…).");
    imageForm();
  } catch (error) {
    showState("Image not uploaded: " + (error.message || error));
  }
  e.target.value = "";
});
document.getElementById("edit-image-place").addEventListener("click", () => imageForm());
document.getElementById("edit-image-remove").addEventListener("click", async () => {
  if (!edit || !floorImages.get(imageKey()) || !confirm("Remove this floor's plan image?")) return;
  try {
    await adminFetch(imagePath(edit.id, level), { method: "DELETE" });
    forgetImage();
    floorImages.set(imageKey(), null);
    drawFloorImage(null);
    showState("Image removed.");
  } catch (error) { showState("Image not removed: " + (error.message || error)); }
});
// The placement form; `picked` are image points picked on the plan (the "pick" tool), else the placement's.
function imageForm(picked) {
  const entry = floorImages.get(imageKey());
  if (!entry) { showState("This floor has no image: choose a file first."); return; }
  const p = placementOf(entry);
  const [[u1, v1], [u2, v2]] = picked || p.imagePoints;
  showForm("Place the floor plan image", [
    { name: "u1", label: "Point 1 x (px)", value: u1, numeric: true }, { name: "v1", label: "Point 1 y (px)", value: v1, numeric: true },
    { name: "u2", label: "Point 2 x (px)", value: u2, numeric: true }, { name: "v2", label: "Point 2 y (px)", value: v2, numeric: true },
    { name: "distance", label: "Distance between (m)", value: p.distanceMeters, numeric: true },
    { name: "x", label: "Point 1 at x (m)", value: p.at[0], numeric: true }, { name: "y", label: "Point 1 at y (m)", value: p.at[1], numeric: true },
    { name: "rotation", label: "Rotation (° counter-clockwise)", value: p.rotationDegrees || 0, numeric: true },
  ], (values) => {
    const { v, problem } = numbers(values, ["u1", "v1", "u2", "v2", "distance", "x", "y", "rotation"]);
    if (problem) return problem;
    if (v.u1 === v.u2 && v.v1 === v.v2) return { field: "u2", message: "the two points must differ" };
    if (!(v.distance > 0)) return { field: "distance", message: "the distance is more than 0 m" };
    const placement = { imagePoints: [[v.u1, v.v1], [v.u2, v.v2]], distanceMeters: v.distance, at: [v.x, v.y], rotationDegrees: v.rotation };
    const id = edit.id, lvl = level;
    adminFetch(imagePath(id, lvl) + "/placement", { method: "PUT", body: JSON.stringify(placement),
      headers: { "Content-Type": "application/json" } }).then((info) => {
      const current = floorImages.get(id + "/" + lvl);
      if (current) current.info = info;
      if (venue && venue.id === id && level === lvl) drawFloorImage(current);
      showState("Image placed.");
    }).catch((error) => showState("Image not placed: " + (error.message || error)));
  });
  const form = document.getElementById("edit-form");
  const pick = document.createElement("button");
  pick.type = "button"; pick.textContent = "Pick the two points on the plan";
  pick.addEventListener("click", () => { closeForm(); setTool("pick"); edit.picked = []; });
  form.querySelector(".buttons").appendChild(pick);
}
// The image pixel (u, v) under the venue point (x, y), through the inverse of the image's matrix.
function imagePixel(entry, x, y) {
  const [a, b, c, d, e, f] = imageMatrix(placementOf(entry));
  const [X, Y] = [x - e, -y - f], det = a * d - b * c;
  return [Math.round((d * X - c * Y) / det * 10) / 10, Math.round((a * Y - b * X) / det * 10) / 10];
}

const hints = {
  select: "Click a node, room, stairs or lift, wall or the anchor to edit it; drag nodes and the corners of a "
    + "selected room, stairs or lift. "
    + "Delete removes, arrow keys nudge a node by 0.1 m, Escape deselects.",
  node: "Click the plan where the node is.",
  room: "Click the room's corners; Enter or a double-click closes it, Escape cancels.",
  wall: "Click one end of the wall, then the other; Escape cancels.",
  anchor: "Click a point whose latitude and longitude you know (the origin by default); with two points (Two points…) "
    + "each click fills the next point.",
  connection: "Click the corners of the stairs' or lift's footprint; Enter or a double-click closes it, Escape cancels.",
  pick: "Click two points on the floor plan image whose distance you know.",
};
function setTool(tool) {
  edit.tool = tool;
  edit.drawing = [];
  for (const b of document.querySelectorAll("#edit-tools [data-tool]")) b.setAttribute("aria-pressed", String(b.dataset.tool === tool));
  document.getElementById("edit-hint").textContent = hints[tool];
  map.classList.toggle("tool", tool !== "select");
  render();
}
function showState(text) { document.getElementById("edit-state").textContent = text; }

// Every change goes through here: the draft before it is kept for undo (at most 200 steps).
function change(apply, redraw = true) {
  edit.undo.push(JSON.stringify(venue));
  if (edit.undo.length > 200) edit.undo.shift();
  apply();
  edit.dirty = true;
  clearError();
  showState("Changed, not saved (" + edit.undo.length + (edit.undo.length === 1 ? " step" : " steps") + " to undo).");
  if (redraw) drawPlan(false);
}
function undo() {
  if (!edit || !edit.undo.length) { if (edit) showState("Nothing to undo."); return; }
  venue = JSON.parse(edit.undo.pop());
  edit.selected = null; edit.drawing = []; edit.dirty = true;
  closeForm(); clearError();
  showState(edit.undo.length ? "Undone (" + edit.undo.length + " more to undo)." : "Undone: back to the venue as it was opened or last saved.");
  drawPlan(false);
}

const floorOf = (thing) => thing.floor === undefined || thing.floor === null ? null : thing.floor;
const nodesHere = () => (venue.nodes || []).map((n, i) => [n, i]).filter(([n]) => onFloor(floorOf(n)));
function currentFloor(create) {
  venue.floors = venue.floors || [];
  let floor = venue.floors.find((f) => f.level === (level === null ? 0 : level));
  if (!floor && create) { floor = { level: level === null ? 0 : level }; venue.floors.push(floor); }
  return floor;
}
function uniqueID(prefix, taken) {
  const used = new Set(taken);
  for (let n = 1; ; n++) if (!used.has(prefix + n)) return prefix + n;
}
// The polygon fences of zone z on the chosen floor: [fence index, fence].
const fencesHere = (z) => (z.fences || []).map((f, i) => [i, f]).filter(([, f]) => f.polygon && onFloor(f.floor));

// ---- The editor's form: one at a time, in the panel; Enter confirms, Escape cancels, Tab moves between fields.
function showForm(title, fields, onOK, onDelete) {
  const form = document.getElementById("edit-form");
  form.innerHTML = "";
  form.hidden = false;
  const heading = document.createElement("h3");
  heading.textContent = title;
  form.appendChild(heading);
  for (const f of fields) {
    const label = document.createElement("label");
    const span = document.createElement("span");
    span.textContent = f.label;
    const input = document.createElement("input");
    input.name = f.name;
    input.value = f.value === undefined || f.value === null ? "" : String(f.value);
    input.autocomplete = "off";
    if (f.placeholder) input.placeholder = f.placeholder;
    if (f.numeric) input.inputMode = "decimal";
    const note = document.createElement("small");
    note.className = "field-error";
    note.dataset.for = f.name;
    label.append(span, input, note);
    form.appendChild(label);
  }
  const buttons = document.createElement("div");
  buttons.className = "buttons";
  const ok = document.createElement("button");
  ok.type = "submit"; ok.textContent = "OK";
  buttons.appendChild(ok);
  if (onDelete) {
    const del = document.createElement("button");
    del.type = "button"; del.textContent = "Delete"; del.className = "delete";
    del.addEventListener("click", () => { closeForm(); onDelete(); map.focus(); });
    buttons.appendChild(del);
  }
  const cancel = document.createElement("button");
  cancel.type = "button"; cancel.textContent = "Cancel";
  cancel.addEventListener("click", () => cancelForm());
  buttons.appendChild(cancel);
  form.appendChild(buttons);
  form.onsubmit = (e) => {
    e.preventDefault();
    for (const note of form.querySelectorAll(".field-error")) note.textContent = "";
    const values = Object.fromEntries(new FormData(form).entries());
    const problem = onOK(values);
    if (problem) { fieldNote(problem.field, problem.message); return; }
    closeForm();
    map.focus({ preventScroll: true });
  };
  form.onkeydown = (e) => { if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); cancelForm(); } };
  const first = form.querySelector("input");
  if (first) first.focus();
}
function fieldNote(name, message) {
  const form = document.getElementById("edit-form");
  const note = form.querySelector('.field-error[data-for="' + CSS.escape(name) + '"]');
  if (note) note.textContent = message;
  const input = form.querySelector('input[name="' + CSS.escape(name) + '"]');
  if (input) { input.setAttribute("aria-invalid", "true"); input.focus(); }
}
function closeForm() {
  const form = document.getElementById("edit-form");
  form.hidden = true;
  form.innerHTML = "";
  if (edit) { edit.pending = null; render(); }
}
function cancelForm() {
  closeForm();
  if (edit) { edit.drawing = []; render(); }
  map.focus({ preventScroll: true });
}
// A number in metres from a form field, or a problem naming the field.
function metres(values, name, optional) {
  const text = String(values[name] === undefined ? "" : values[name]).trim().replace(",", ".");
  if (text === "" && optional) return { value: undefined };
  const value = Number(text);
  if (text === "" || !Number.isFinite(value)) return { problem: { field: name, message: "a number (metres) is needed here" } };
  return { value };
}

// The numbers of form fields `names` as {v: {name: value}}, or the first field that is not one as {problem}.
function numbers(values, names) {
  const v = {};
  for (const name of names) {
    const m = metres(values, name);
    if (m.problem) return { problem: { field: name, message: "a number is needed here" } };
    v[name] = m.value;
  }
  return { v };
}

// A node's form: a new node at (x, y), or node `index` of the draft.
function nodeForm(index, x, y) {
  const node = index === null ? null : venue.nodes[index];
  const taken = (venue.nodes || []).map((n) => n.id);
  if (index === null) edit.pending = { kind: "node", x, y };
  showForm(node ? "Node " + node.id : "New node", [
    { name: "id", label: "Id", value: node ? node.id : uniqueID("node-", taken) },
    { name: "x", label: "x (m)", value: node ? node.x : x, numeric: true },
    { name: "y", label: "y (m)", value: node ? node.y : y, numeric: true },
    { name: "z", label: "Height z (m)", value: node ? (node.z === undefined ? 0 : node.z) : 0, numeric: true },
    { name: "beacon", label: "Beacon", value: node ? node.beacon || "" : "", placeholder: "UUID/major/minor (optional)" },
  ], (values) => {
    const id = values.id.trim();
    if (!id) return { field: "id", message: "a node needs an id" };
    const parsed = {};
    for (const name of ["x", "y", "z"]) {
      const m = metres(values, name, name === "z");
      if (m.problem) return m.problem;
      parsed[name] = m.value;
    }
    const beacon = values.beacon.trim();
    change(() => {
      const target = node || {};
      target.id = id;
      target.x = mm(parsed.x); target.y = mm(parsed.y);
      if (parsed.z === undefined) delete target.z; else target.z = parsed.z;
      if (beacon) target.beacon = beacon; else delete target.beacon;
      if (!node) {
        if (level !== null) target.floor = level;
        venue.nodes = venue.nodes || [];
        venue.nodes.push(target);
        edit.selected = { kind: "node", index: venue.nodes.length - 1 };
      }
    });
  }, node ? () => deleteSelected() : null);
}
function roomForm(index, polygon) {
  const zone = index === null ? null : venue.zones[index];
  const taken = (venue.zones || []).map((z) => z.id);
  const id = zone ? zone.id : uniqueID("room-", taken);
  showForm(zone ? "Room " + (zone.name || zone.id) : "New room", [
    { name: "id", label: "Id", value: id },
    { name: "name", label: "Name", value: zone ? zone.name || "" : "Room " + id.replace(/^room-/, "") },
  ], (values) => {
    const newID = values.id.trim();
    if (!newID) return { field: "id", message: "a room needs an id" };
    change(() => {
      if (zone) { zone.id = newID; zone.name = values.name.trim() || newID; return; }
      const fence = { polygon };
      if (level !== null) fence.floor = level;
      venue.zones = venue.zones || [];
      venue.zones.push({ id: newID, name: values.name.trim() || newID, fences: [fence] });
      edit.selected = { kind: "room", index: venue.zones.length - 1 };
      edit.drawing = [];
    });
  }, zone ? () => deleteSelected() : null);
}
function wallForm(index) {
  const wall = currentFloor(false).walls[index];
  showForm("Wall", [
    { name: "x1", label: "x1 (m)", value: wall[0][0], numeric: true }, { name: "y1", label: "y1 (m)", value: wall[0][1], numeric: true },
    { name: "x2", label: "x2 (m)", value: wall[1][0], numeric: true }, { name: "y2", label: "y2 (m)", value: wall[1][1], numeric: true },
  ], (values) => {
    const v = {};
    for (const name of ["x1", "y1", "x2", "y2"]) { const m = metres(values, name); if (m.problem) return m.problem; v[name] = mm(m.value); }
    change(() => { currentFloor(false).walls[index] = [[v.x1, v.y1], [v.x2, v.y2]]; });
  }, () => deleteSelected());
}
// Stairs, a lift, an escalator or a ramp (a venue's `connections`, FORMATS.md): a new one with the footprint
// `polygon` just drawn, or connection `index` of the draft. Its levels are typed as "0, 1" (at least two floors).
const connectionKinds = ["stairs", "lift", "escalator", "ramp"];
function connectionForm(index, polygon) {
  const connection = index === null ? null : venue.connections[index];
  const taken = (venue.connections || []).map((c) => c.id);
  const here = level === null ? 0 : level;
  const levels = (venue.floors || []).map((f) => f.level).sort((a, b) => a - b);
  const other = levels.find((l) => l > here) ?? [...levels].reverse().find((l) => l < here) ?? here + 1;
  showForm(connection ? (connection.kind || "stairs") + " " + connection.id : "New stairs or lift", [
    { name: "id", label: "Id", value: connection ? connection.id : uniqueID("stairs-", taken) },
    { name: "kind", label: "Kind", value: connection ? connection.kind || "stairs" : "stairs", placeholder: connectionKinds.join(", ") },
    { name: "levels", label: "Floors it joins", value: connection ? (connection.levels || []).join(", ") : [here, other].sort((a, b) => a - b).join(", "), placeholder: "0, 1" },
  ], (values) => {
    const id = values.id.trim();
    if (!id) return { field: "id", message: "stairs or a lift need an id" };
    if (taken.some((t, i) => t === id && i !== index)) return { field: "id", message: "this id is already used by other stairs or a lift" };
    const kind = values.kind.trim().toLowerCase();
    if (!connectionKinds.includes(kind)) return { field: "kind", message: "one of " + connectionKinds.join(", ") };
    const parts = values.levels.split(/[\s,;]+/).filter((t) => t !== "");
    const joined = parts.map(Number);
    if (!parts.length || joined.some((l) => !Number.isInteger(l))) return { field: "levels", message: "floor levels as whole numbers: 0, 1" };
    if (new Set(joined).size !== joined.length) return { field: "levels", message: "each floor once" };
    if (joined.length < 2) return { field: "levels", message: "stairs or a lift join at least two floors" };
    change(() => {
      if (connection) { connection.id = id; connection.kind = kind; connection.levels = joined; return; }
      venue.connections = venue.connections || [];
      venue.connections.push({ id, kind, levels: joined, polygon });
      edit.selected = { kind: "connection", index: venue.connections.length - 1 };
      edit.drawing = [];
    });
  }, connection ? () => deleteSelected() : null);
}

// ---- The geographic anchor: the latitude and longitude of the local origin and the bearing of +y (FORMATS.md).
// A point (x, y) other than the origin is given by its own latitude and longitude; the origin's are found from it
// through the local tangent plane of the WGS84 ellipsoid, as the server converts.
const WGS84 = { a: 6378137, f: 1 / 298.257223563 };
const rad = Math.PI / 180;
function ecef(lat, lon) {
  const e2 = WGS84.f * (2 - WGS84.f), s = Math.sin(lat * rad), c = Math.cos(lat * rad);
  const n = WGS84.a / Math.sqrt(1 - e2 * s * s);
  return [n * c * Math.cos(lon * rad), n * c * Math.sin(lon * rad), n * (1 - e2) * s];
}
// East and north metres of (lat, lon) from the origin (lat0, lon0), in the origin's tangent plane.
function eastNorth(lat0, lon0, lat, lon) {
  const [x0, y0, z0] = ecef(lat0, lon0), [x, y, z] = ecef(lat, lon);
  const [dx, dy, dz] = [x - x0, y - y0, z - z0];
  const sl = Math.sin(lon0 * rad), cl = Math.cos(lon0 * rad), sp = Math.sin(lat0 * rad), cp = Math.cos(lat0 * rad);
  return [-sl * dx + cl * dy, -sp * cl * dx - sp * sl * dy + cp * dz];
}
// The origin's latitude and longitude when the local point (x, y) lies at (lat, lon) and +y has `bearing`.
function originFor(x, y, lat, lon, bearing) {
  const b = bearing * rad;
  const east = x * Math.cos(b) + y * Math.sin(b), north = -x * Math.sin(b) + y * Math.cos(b);
  const r = 6371008.8;
  let lat0 = lat - north / r / rad, lon0 = lon - east / (r * Math.cos(lat * rad)) / rad;
  for (let i = 0; i < 8; i++) {
    const [e, n] = eastNorth(lat0, lon0, lat, lon);
    lat0 -= (north - n) / r / rad;
    lon0 -= (east - e) / (r * Math.cos(lat0 * rad)) / rad;
  }
  return [Math.round(lat0 * 1e9) / 1e9, Math.round(lon0 * 1e9) / 1e9];
}
function anchorForm(x, y) {
  const anchor = venue.anchor || null;
  const atOrigin = x === 0 && y === 0;
  edit.pending = { kind: "anchor", x, y };
  showForm("Geographic anchor", [
    { name: "x", label: "Point x (m)", value: x, numeric: true },
    { name: "y", label: "Point y (m)", value: y, numeric: true },
    { name: "latitude", label: "Its latitude (°)", value: anchor && atOrigin ? anchor.latitude : "", numeric: true, placeholder: "−90…90" },
    { name: "longitude", label: "Its longitude (°)", value: anchor && atOrigin ? anchor.longitude : "", numeric: true, placeholder: "−180…180" },
    { name: "bearingDegrees", label: "Bearing of +y (° clockwise from north)", value: anchor ? anchor.bearingDegrees || 0 : 0, numeric: true },
  ], (values) => {
    const { v, problem } = numbers(values, ["x", "y", "latitude", "longitude", "bearingDegrees"]);
    if (problem) return problem;
    if (Math.abs(v.latitude) > 90) return { field: "latitude", message: "a latitude is in −90…90" };
    if (Math.abs(v.longitude) > 180) return { field: "longitude", message: "a longitude is in −180…180" };
    if (Math.abs(v.bearingDegrees) > 360) return { field: "bearingDegrees", message: "a bearing is in −360…360" };
    const [latitude, longitude] = originFor(v.x, v.y, v.latitude, v.longitude, v.bearingDegrees);
    change(() => { venue.anchor = Object.assign({}, venue.anchor || {}, { latitude, longitude, bearingDegrees: v.bearingDegrees }); });
    edit.selected = { kind: "anchor" };
  }, anchor ? () => deleteSelected() : null);
  const form = document.getElementById("edit-form");
  const two = document.createElement("button");
  two.type = "button"; two.textContent = "Two points…"; two.id = "edit-anchor-two";
  two.title = "Give two points and their latitudes and longitudes instead of a bearing";
  two.addEventListener("click", () => anchorTwoForm(x, y));
  form.querySelector(".buttons").appendChild(two);
}
// The anchor by two points of the plan whose latitudes and longitudes are known: the bearing is the angle between
// the line joining them on the plan and on the Earth (in the first point's tangent plane), the origin the mean of
// what each point gives. Refused when the two distances differ by more than 10 % (a wrong coordinate or scale).
function anchorTwoForm(x, y) {
  setTool("anchor");
  edit.pending = { kind: "anchor2", x, y, next: 2 };
  const field = (name, label, value, extra) => Object.assign({ name, label, value, numeric: true }, extra || {});
  showForm("Geographic anchor by two points", [
    field("x1", "Point 1 x (m)", x), field("y1", "Point 1 y (m)", y),
    field("latitude1", "Point 1 latitude (°)", "", { placeholder: "−90…90" }),
    field("longitude1", "Point 1 longitude (°)", "", { placeholder: "−180…180" }),
    field("x2", "Point 2 x (m)", ""), field("y2", "Point 2 y (m)", ""),
    field("latitude2", "Point 2 latitude (°)", "", { placeholder: "−90…90" }),
    field("longitude2", "Point 2 longitude (°)", "", { placeholder: "−180…180" }),
  ], (values) => {
    const { v, problem } = numbers(values, ["x1", "y1", "latitude1", "longitude1", "x2", "y2", "latitude2", "longitude2"]);
    if (problem) return problem;
    for (const n of [1, 2]) {
      if (Math.abs(v["latitude" + n]) > 90) return { field: "latitude" + n, message: "a latitude is in −90…90" };
      if (Math.abs(v["longitude" + n]) > 180) return { field: "longitude" + n, message: "a longitude is in −180…180" };
    }
    const result = anchorFromTwo(v);
    if (result.problem) return result.problem;
    change(() => { venue.anchor = Object.assign({}, venue.anchor || {}, result.anchor); });
    edit.selected = { kind: "anchor" };
    showState("Anchor set by two points: bearing " + result.anchor.bearingDegrees + "°; the points are "
      + result.plan.toFixed(2) + " m apart on the plan and " + result.earth.toFixed(2) + " m on the Earth. Not saved.");
  });
  // Clicking the plan (with the anchor tool) now fills point 2, then point 1, in turn.
  const form = document.getElementById("edit-form");
  form.querySelector('input[name="latitude1"]').focus();
  render();
}
// Puts the clicked venue point into the two-point form's next point.
function anchorPoint(x, y) {
  const form = document.getElementById("edit-form"), pending = edit.pending;
  const n = pending.next;
  form.querySelector('input[name="x' + n + '"]').value = x;
  form.querySelector('input[name="y' + n + '"]').value = y;
  pending.next = n === 2 ? 1 : 2;
  if (n === 1) { pending.x = x; pending.y = y; } else { pending.x2 = x; pending.y2 = y; }
  form.querySelector('input[name="latitude' + n + '"]').focus();
  render();
}
// The anchor {latitude, longitude, bearingDegrees} from two points (x, y, latitude, longitude each), or a problem.
function anchorFromTwo(v) {
  const [east, north] = eastNorth(v.latitude1, v.longitude1, v.latitude2, v.longitude2);
  const [dx, dy] = [v.x2 - v.x1, v.y2 - v.y1];
  const plan = Math.hypot(dx, dy), earth = Math.hypot(east, north);
  if (plan < 0.5) return { problem: { field: "x2", message: "the two points are less than 0.5 m apart on the plan" } };
  if (earth < 0.5) return { problem: { field: "latitude2", message: "the two points are less than 0.5 m apart on the Earth" } };
  if (Math.abs(plan / earth - 1) > 0.1) {
    return { problem: { field: "latitude2", message: "the points are " + plan.toFixed(2) + " m apart on the plan but "
      + earth.toFixed(2) + " m on the Earth: check the coordinates, or the plan's scale" } };
  }
  // A local direction at angle θ (counter-clockwise from +x) points at θ − bearing from east on the Earth.
  let bearing = (Math.atan2(dy, dx) - Math.atan2(north, east)) / rad;
  bearing = ((bearing + 180) % 360 + 360) % 360 - 180;
  bearing = Math.round(bearing * 1e6) / 1e6;
  const [a1, o1] = originFor(v.x1, v.y1, v.latitude1, v.longitude1, bearing);
  const [a2, o2] = originFor(v.x2, v.y2, v.latitude2, v.longitude2, bearing);
  const round = (d) => Math.round(d * 1e9) / 1e9;
  return { anchor: { latitude: round((a1 + a2) / 2), longitude: round((o1 + o2) / 2), bearingDegrees: bearing }, plan, earth };
}

function select(thing) {
  edit.selected = thing;
  if (!thing) { closeForm(); render(); return; }
  if (thing.kind === "node") nodeForm(thing.index);
  else if (thing.kind === "room") roomForm(thing.index);
  else if (thing.kind === "wall") wallForm(thing.index);
  else if (thing.kind === "connection") connectionForm(thing.index);
  else if (thing.kind === "anchor") anchorForm(0, 0);
  map.focus({ preventScroll: true });   // keys act on the selection; Tab reaches the form
  render();
}
function deleteSelected() {
  const s = edit.selected;
  if (!s) return;
  change(() => {
    if (s.kind === "node") venue.nodes.splice(s.index, 1);
    else if (s.kind === "room") venue.zones.splice(s.index, 1);
    else if (s.kind === "wall") currentFloor(false).walls.splice(s.index, 1);
    else if (s.kind === "anchor") delete venue.anchor;
    else if (s.kind === "connection") venue.connections.splice(s.index, 1);
    else if (s.kind === "corner") {
      const fence = venue.zones[s.zone].fences[s.fence];
      if (fence.polygon.length > 3) fence.polygon.splice(s.corner, 1);
    } else if (s.kind === "connection-corner") {
      const polygon = venue.connections[s.index].polygon;
      if (polygon.length > 3) polygon.splice(s.corner, 1);
    }
    edit.selected = null;
  });
  closeForm();
}

// ---- Pointing on the plan. Handles within 10 px are taken: a node, a corner of the selected room, the anchor.
const HIT = 10;
function handleAt(px, py) {
  let best = null, distance = HIT;
  const consider = (thing, x, y) => {
    const [hx, hy] = project(x, y);
    const d = Math.hypot(hx - px, hy - py);
    if (d <= distance) { best = thing; distance = d; }
  };
  const s = edit.selected;
  if (s && (s.kind === "room" || s.kind === "corner")) {
    const zone = venue.zones[s.kind === "room" ? s.index : s.zone];
    if (zone) for (const [f, fence] of fencesHere(zone))
      fence.polygon.forEach(([x, y], c) => consider({ kind: "corner", zone: venue.zones.indexOf(zone), fence: f, corner: c }, x, y));
  }
  if (s && (s.kind === "connection" || s.kind === "connection-corner")) {
    const c = (venue.connections || [])[s.index];
    if (c && c.polygon) c.polygon.forEach(([x, y], corner) => consider({ kind: "connection-corner", index: s.index, corner }, x, y));
  }
  for (const [n, i] of nodesHere()) consider({ kind: "node", index: i }, n.x, n.y);
  if (venue.anchor) consider({ kind: "anchor" }, 0, 0);
  return best;
}
function somethingAt(px, py) {
  const floor = currentFloor(false);
  let best = null, distance = 6;
  for (const [i, [[x1, y1], [x2, y2]]] of ((floor && floor.walls) || []).entries()) {
    const [a, b] = [project(x1, y1), project(x2, y2)];
    const [dx, dy] = [b[0] - a[0], b[1] - a[1]];
    const t = Math.max(0, Math.min(1, ((px - a[0]) * dx + (py - a[1]) * dy) / (dx * dx + dy * dy || 1)));
    const d = Math.hypot(a[0] + t * dx - px, a[1] + t * dy - py);
    if (d <= distance) { best = { kind: "wall", index: i }; distance = d; }
  }
  if (best) return best;
  const [x, y] = toVenue(px, py);
  let smallest = Infinity;
  (venue.zones || []).forEach((z, i) => {
    for (const [, fence] of fencesHere(z)) {
      const area = Math.abs(polygonArea(fence.polygon));
      if (pointIn(fence.polygon, x, y) && area < smallest) { smallest = area; best = { kind: "room", index: i }; }
    }
  });
  // Stairs and lifts on this floor, taken like rooms: the smallest shape under the click wins.
  (venue.connections || []).forEach((c, i) => {
    if (level !== null && !(c.levels || []).includes(level)) return;
    const inside = c.polygon ? pointIn(c.polygon, x, y) : c.center ? Math.hypot(x - c.center[0], y - c.center[1]) <= c.radius : false;
    const area = c.polygon ? Math.abs(polygonArea(c.polygon)) : Math.PI * (c.radius || 0) ** 2;
    if (inside && area < smallest) { smallest = area; best = { kind: "connection", index: i }; }
  });
  return best;
}
function editorPointerDown(e) {
  const [px, py] = pointerAt(e);
  if (edit.tool === "select") {
    const hit = handleAt(px, py);
    if (hit) {
      if (hit.kind === "corner" || hit.kind === "connection-corner") edit.selected = hit; else select(hit);
      if (hit.kind !== "anchor") edit.drag = { id: e.pointerId, hit, from: [px, py], moved: false };
      render();
      return true;
    }
  }
  edit.press = { id: e.pointerId, at: [px, py], point: toVenue(px, py) };
  return false;
}
function editorPointerMove(e) {
  const [px, py] = pointerAt(e);
  edit.hover = [px, py];
  if (edit.press && edit.press.id === e.pointerId && Math.hypot(px - edit.press.at[0], py - edit.press.at[1]) > 4) edit.press = null;
  if (edit.tool !== "select" && (edit.drawing.length || edit.tool === "room" || edit.tool === "connection")) render();
  const drag = edit.drag;
  if (!drag || drag.id !== e.pointerId) return false;
  if (!drag.moved && Math.hypot(px - drag.from[0], py - drag.from[1]) < 3) return true;
  const [x, y] = toVenue(px, py).map(mm);
  const move = () => {
    if (drag.hit.kind === "node") { const n = venue.nodes[drag.hit.index]; n.x = x; n.y = y; }
    else if (drag.hit.kind === "corner") venue.zones[drag.hit.zone].fences[drag.hit.fence].polygon[drag.hit.corner] = [x, y];
    else if (drag.hit.kind === "connection-corner") venue.connections[drag.hit.index].polygon[drag.hit.corner] = [x, y];
  };
  if (!drag.moved) { drag.moved = true; change(move, false); } else move();
  drawPlan(false);
  return true;
}
function editorPointerUp(e, cancelled) {
  const drag = edit.drag;
  if (drag && drag.id === e.pointerId) {
    edit.drag = null;
    if (drag.moved && drag.hit.kind === "node") nodeForm(drag.hit.index);
    if (drag.moved && drag.hit.kind === "corner") { edit.selected = drag.hit; roomForm(drag.hit.zone); }
    if (drag.moved && drag.hit.kind === "connection-corner") { edit.selected = drag.hit; connectionForm(drag.hit.index); }
    return;
  }
  const press = edit.press;
  edit.press = null;
  if (cancelled || !press || press.id !== e.pointerId) return;
  click(press.at, press.point.map(mm));
}
// A click (no drag) at the pixel `at`, which is the venue point `point` (metres, to 1 mm).
function click(at, point) {
  const [x, y] = point;
  switch (edit.tool) {
    case "select": select(somethingAt(at[0], at[1])); break;
    case "node": nodeForm(null, x, y); break;
    case "anchor":
      if (edit.pending && edit.pending.kind === "anchor2") anchorPoint(x, y); else anchorForm(x, y);
      break;
    case "pick": {
      const entry = floorImages.get(imageKey());
      if (!entry) break;
      edit.picked = (edit.picked || []).concat([imagePixel(entry, point[0], point[1])]);
      if (edit.picked.length === 2) { const picked = edit.picked; edit.picked = []; setTool("select"); imageForm(picked); }
      break;
    }
    case "wall":
      if (!edit.drawing.length) { edit.drawing = [point]; render(); break; }
      change(() => {
        const floor = currentFloor(true);
        floor.walls = floor.walls || [];
        floor.walls.push([edit.drawing[0], point]);
        edit.drawing = [];
      });
      break;
    case "room": case "connection": {
      const last = edit.drawing[edit.drawing.length - 1];
      // A double-click's second click lands where the first did: it adds no corner.
      if (last) { const [lx, ly] = project(last[0], last[1]); if (Math.hypot(lx - at[0], ly - at[1]) < 4) break; }
      edit.drawing.push(point);
      render();
      break;
    }
  }
}
function closeRoom() {
  const what = edit.tool === "connection" ? "A footprint" : "A room";
  if (edit.drawing.length < 3) { showState(what + " needs at least three corners."); return; }
  const polygon = edit.drawing.slice();
  edit.pending = { kind: "room", polygon };
  if (edit.tool === "connection") connectionForm(null, polygon); else roomForm(null, polygon);
}
map.addEventListener("dblclick", (e) => {
  if (edit && (edit.tool === "room" || edit.tool === "connection")) { e.preventDefault(); closeRoom(); }
});

// Keys while editing; true when the key was the editor's.
function editorKey(e) {
  const inField = e.target && e.target.closest && e.target.closest("input, select, textarea, [contenteditable]");
  if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "z" && !inField) { undo(); return true; }
  if (inField || e.ctrlKey || e.metaKey || e.altKey) return false;
  if (e.target && e.target.closest && e.target.closest("button") && (e.key === "Enter" || e.key === " ")) return false;
  const s = edit.selected;
  switch (e.key) {
    case "Escape":
      if (edit.drawing.length) { edit.drawing = []; render(); }
      else if (!document.getElementById("edit-form").hidden) cancelForm();
      else if (s) select(null);
      else if (edit.tool !== "select") setTool("select");
      return true;
    case "Enter":
      if ((edit.tool === "room" || edit.tool === "connection") && edit.drawing.length) { closeRoom(); return true; }
      return false;
    case "Delete": case "Backspace":
      if (s) { deleteSelected(); return true; }
      return false;
    case "ArrowLeft": case "ArrowRight": case "ArrowUp": case "ArrowDown": {
      if (!s || s.kind !== "node") return false;
      const [dx, dy] = { ArrowLeft: [-.1, 0], ArrowRight: [.1, 0], ArrowUp: [0, .1], ArrowDown: [0, -.1] }[e.key];
      change(() => { const n = venue.nodes[s.index]; n.x = mm(n.x + dx); n.y = mm(n.y + dy); });
      nodeForm(s.index);
      map.focus({ preventScroll: true });
      return true;
    }
    case "s": setTool("select"); return true;
    case "n": setTool("node"); return true;
    case "r": setTool("room"); return true;
    case "w": setTool("wall"); return true;
    case "a": setTool("anchor"); return true;
    case "c": setTool("connection"); return true;
  }
  return false;
}

// ---- Saving: the whole draft with PUT; a 400 names a JSON path, shown at the item it names; the draft is kept.
async function save() {
  if (!edit) return;
  const key = localStorage.getItem(adminKeyName);
  if (!key) { askKey(); return; }
  showState("Saving…");
  let response, body;
  try {
    response = await fetch("/v1/venues/" + encodeURIComponent(edit.id), {
      method: "PUT", body: JSON.stringify(venue),
      headers: { "Authorization": "Bearer " + key, "Content-Type": "application/json" },
    });
    body = await response.json().catch(() => null);
  } catch (error) {
    showState("Not saved: " + (error.message || error) + ". The changes are kept; try again.");
    return;
  }
  if (!edit) return;
  if (response.ok && body) {
    edit.original = body;
    venue = JSON.parse(JSON.stringify(body));
    edit.dirty = false; edit.undo = []; edit.selected = null;
    closeForm(); clearError();
    showState("Saved.");
    drawPlan(false);
    return;
  }
  if (response.status === 401 || response.status === 403) {
    localStorage.removeItem(adminKeyName);
    showState("Not saved: the admin key was refused (" + response.status + "). Give the admin key; the changes are kept.");
    askKey();
    return;
  }
  let field = (body && body.field) || "venue", message = (body && body.message) || response.status + " " + response.statusText;
  // A message that starts with its own JSON path ("nodes[3].x: …") names the item when the field is the whole venue.
  const named = /^((?:nodes|zones|floors|connections|anchor)[\w\[\].]*): ([\s\S]*)$/.exec(message);
  if (field === "venue" && named) { field = named[1]; message = named[2]; }
  if (message.startsWith(field + ": ")) message = message.slice(field.length + 2);
  showError(field, message);
  showState("Not saved: the server refused the venue (" + response.status + "). The changes are kept.");
}
function clearError() {
  if (!edit) return;
  edit.error = null;
  const box = document.getElementById("edit-error");
  box.hidden = true; box.textContent = "";
}
// Shows the server's error at what its JSON path names (`nodes[2].id`, `zones[0].fences[0].polygon[3]`,
// `floors[0].walls[1]`, `anchor.latitude`): selects it (on its floor), marks it on the plan and notes the field.
function showError(field, message) {
  const box = document.getElementById("edit-error");
  box.hidden = false;
  box.textContent = field + ": " + message;
  const m = /^(nodes|zones|floors|connections)\[(\d+)\](?:\.(\w+))?(?:\[(\d+)\])?(?:\.?(\w+))?(?:\[(\d+)\])?/.exec(field);
  let target = null, note = null, at = null, floorLevel;
  if (m && m[1] === "nodes" && venue.nodes && venue.nodes[+m[2]]) {
    const n = venue.nodes[+m[2]];
    target = { kind: "node", index: +m[2] }; note = m[3] || "id"; floorLevel = floorOf(n);
    at = () => [n.x, n.y];
  } else if (m && m[1] === "zones" && venue.zones && venue.zones[+m[2]]) {
    const z = venue.zones[+m[2]];
    target = { kind: "room", index: +m[2] }; note = m[3] === "name" ? "name" : "id";
    const fence = (z.fences || []).find((f) => f.polygon) || null;
    floorLevel = fence ? floorOf(fence) : null;
    if (fence) at = () => centroid(fence.polygon);
  } else if (m && m[1] === "floors" && m[3] === "walls" && venue.floors && venue.floors[+m[2]]) {
    const floor = venue.floors[+m[2]], wall = (floor.walls || [])[+m[4]];
    floorLevel = floor.level;
    if (wall) { target = { kind: "wall", index: +m[4] }; at = () => [(wall[0][0] + wall[1][0]) / 2, (wall[0][1] + wall[1][1]) / 2]; }
  } else if (m && m[1] === "connections" && venue.connections && venue.connections[+m[2]]) {
    const c = venue.connections[+m[2]];
    target = { kind: "connection", index: +m[2] }; note = ["kind", "levels"].includes(m[3]) ? m[3] : "id";
    floorLevel = (c.levels || []).includes(level) ? level : (c.levels || [])[0];
    at = () => c.polygon ? centroid(c.polygon) : c.center;
  } else if (/^anchor/.test(field) && venue.anchor) {
    target = { kind: "anchor" }; note = field.split(".")[1] || "latitude"; at = () => [0, 0];
  }
  if (floorLevel !== undefined && floorLevel !== null && level !== null && floorLevel !== level) {
    level = floorLevel;
    document.getElementById("floor").value = String(level);
    drawPlan(false);
  }
  if (target) {
    select(target);
    if (note) fieldNote(note, message);
  }
  edit.error = { field, message, at };
  render();
}

// The editor's marks, in pixels over the plan: the selection, the corners of the selected room, the anchor, what
// is being drawn and the server's error at the item it names.
function paintEditor() {
  const layer = document.getElementById("handles");
  if (!layer) return;
  layer.innerHTML = "";
  const s = edit.selected;
  const mark = (name, attributes) => el(name, attributes, layer);
  if (s && s.kind === "node" && venue.nodes[s.index]) {
    const [x, y] = project(venue.nodes[s.index].x, venue.nodes[s.index].y);
    mark("circle", { class: "selection", cx: x, cy: y, r: 9 });
  }
  const zoneIndex = s && (s.kind === "room" ? s.index : s.kind === "corner" ? s.zone : -1);
  if (s && venue.zones && venue.zones[zoneIndex]) {
    for (const [f, fence] of fencesHere(venue.zones[zoneIndex])) {
      const points = fence.polygon.map(([x, y]) => project(x, y));
      mark("polygon", { class: "selection", points: points.map((p) => p.join(",")).join(" ") });
      points.forEach(([x, y], c) => {
        const active = s.kind === "corner" && s.fence === f && s.corner === c;
        const h = mark("rect", { class: "corner" + (active ? " active" : ""), x: x - 4, y: y - 4, width: 8, height: 8 });
        h.dataset.corner = c;
      });
    }
  }
  const connection = s && (s.kind === "connection" || s.kind === "connection-corner") && (venue.connections || [])[s.index];
  if (connection && connection.polygon) {
    const points = connection.polygon.map(([x, y]) => project(x, y));
    mark("polygon", { class: "selection", points: points.map((p) => p.join(",")).join(" ") });
    points.forEach(([x, y], c) => {
      const active = s.kind === "connection-corner" && s.corner === c;
      const h = mark("rect", { class: "corner" + (active ? " active" : ""), x: x - 4, y: y - 4, width: 8, height: 8 });
      h.dataset.connectionCorner = c;
    });
  } else if (connection && connection.center) {
    const [x, y] = project(connection.center[0], connection.center[1]);
    mark("circle", { class: "selection", cx: x, cy: y, r: connection.radius * view.scale });
  }
  const floor = currentFloor(false);
  if (s && s.kind === "wall" && floor && floor.walls && floor.walls[s.index]) {
    const [[x1, y1], [x2, y2]] = floor.walls[s.index];
    const [a, b] = [project(x1, y1), project(x2, y2)];
    mark("line", { class: "selection", x1: a[0], y1: a[1], x2: b[0], y2: b[1] });
  }
  if (venue.anchor) {
    const [x, y] = project(0, 0);
    const b = (venue.anchor.bearingDegrees || 0) * rad;
    // North in the local frame is (−sin b, cos b); on screen y points down.
    const [nx, ny] = [x - Math.sin(b) * 24, y - Math.cos(b) * 24];
    const g = mark("g", { class: "anchor" + (s && s.kind === "anchor" ? " active" : "") });
    el("line", { x1: x, y1: y, x2: nx, y2: ny }, g);
    el("circle", { cx: x, cy: y, r: 5 }, g);
    const n = el("text", { x: nx - 4, y: ny - 4 }, g);
    n.textContent = "N";
    el("title", {}, g).textContent = "anchor: " + venue.anchor.latitude + ", " + venue.anchor.longitude
      + ", bearing " + (venue.anchor.bearingDegrees || 0) + "°";
  }
  if (edit.drawing.length) {
    const points = edit.drawing.map(([x, y]) => project(x, y));
    if (edit.hover) points.push(edit.hover);
    mark("polyline", { class: "drawing", points: points.map((p) => p.join(",")).join(" ") });
    for (const [x, y] of edit.drawing.map(([x, y]) => project(x, y))) mark("rect", { class: "corner", x: x - 4, y: y - 4, width: 8, height: 8 });
  }
  const pending = edit.pending;
  if (pending && pending.kind === "room") {
    const points = pending.polygon.map(([x, y]) => project(x, y));
    mark("polygon", { class: "drawing", points: points.map((p) => p.join(",")).join(" ") });
  } else if (pending && (pending.kind === "node" || pending.kind === "anchor" || pending.kind === "anchor2")) {
    const [x, y] = project(pending.x, pending.y);
    mark("circle", { class: "pending", cx: x, cy: y, r: 6 });
    if (pending.x2 !== undefined) {
      const [x2, y2] = project(pending.x2, pending.y2);
      mark("circle", { class: "pending", cx: x2, cy: y2, r: 6 });
      mark("line", { class: "drawing", x1: x, y1: y, x2, y2 });
    }
  }
  if (edit.error && edit.error.at) {
    const [x, y] = project(...edit.error.at());
    mark("circle", { class: "error-ring", cx: x, cy: y, r: 12 });
    const text = mark("text", { class: "edit-error", x: x + 14, y: y + 4 });
    text.dataset.field = edit.error.field;
    text.textContent = edit.error.message;
  }
}

function fail(error) { statusLine.textContent = String(error.message || error); }

// "live", and where the venue's positioning comes from while its survey is learned and once it is.
function showStatus() {
  if (!live || !venue) return;
  const survey = surveys.get(venue.id);
  statusLine.textContent = "live" + (survey === "learning" ? " · learning the venue's survey (fixes without it meanwhile)"
    : survey === "learned" ? " · tracking over the survey's radio map"
    : survey === "failed" ? " · the survey could not be learned (see the server's log)" : "");
}

// Notes each venue's survey state from a venue list; while one is being learned, asks again in 10 s.
function noteSurveys(list) {
  for (const v of list.venues) surveys.set(v.id, v.survey);
  showStatus();
  if (list.venues.some((v) => v.survey === "learning")) {
    setTimeout(() => api("/v1/venues").then(noteSurveys).catch(fail), 10000);
  }
}

(async () => {
  const list = await api("/v1/venues");
  const select = document.getElementById("venue");
  for (const v of list.venues) select.add(new Option(v.name || v.id, v.id));
  noteSurveys(list);
  const wanted = params.get("venue") || (list.venues[0] && list.venues[0].id);
  if (!wanted) { statusLine.textContent = "no venue yet: PUT /v1/venues/{id}"; return; }
  select.value = wanted;
  await openVenue(wanted);
  refreshNodes();
})().catch(fail);
