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

function drawPlan() {
  map.innerHTML = "";
  placeNames = [];
  lastPlace.clear();
  const viewport = el("g", { id: "viewport" }, map);
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
  for (const fix of devices.values()) drawDevice(fix);
  markZones();
  fit();
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

document.getElementById("floor").addEventListener("change", (e) => { level = Number(e.target.value); drawPlan(); });
document.getElementById("venue").addEventListener("change", (e) => openVenue(e.target.value).catch(fail));

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
  pointers.set(e.pointerId, pointerAt(e));
  map.classList.add("dragging");
});
map.addEventListener("pointermove", (e) => {
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
  pointers.delete(e.pointerId);
  if (!pointers.size) map.classList.remove("dragging");
});
document.addEventListener("keydown", (e) => {
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
