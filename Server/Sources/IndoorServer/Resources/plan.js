// ---- Drawing the plan: the chosen floor's outline, walls, zones, connections and nodes, the devices over it, and
// the nodes' health and the zones' occupancy on it.

import { api } from "./api.js";
import { showFloorImage } from "./floor-image.js";
import { roomLabel, roomText } from "./format.js";
import { polygonArea } from "./geometry.js";
import { forgetLabels, placeNames } from "./labels.js";
import { DOT } from "./layout.js";
import { devices, inside, level, occupancy, onFloor, rooms, shownName, venue } from "./state.js";
import { el, map } from "./view.js";
import { fit, render } from "./zoom.js";

const pts = (points) => points.map(([x, y]) => x + "," + (-y)).join(" ");
// An SVG path of closed rings (metres, y up), for shapes with holes.
const rings = (polygons) => polygons.filter((p) => p && p.length).map((p) => "M" + p.map(([x, y]) => x + "," + -y).join("L") + "Z").join("");
const shapeOf = (s) => s.polygon ? { polygon: s.polygon } : s.center ? { center: s.center, radius: s.radius } : null;

// Draws the chosen floor's plan; fits it to the map unless `refit` is false (the editor keeps the view).
export function drawPlan(refit = true) {
  map.innerHTML = "";
  forgetLabels();
  const viewport = el("g", { id: "viewport" }, map);
  el("g", { id: "backdrop" }, viewport);   // the floor's plan image, under the plan
  const plan = el("g", { id: "plan" }, viewport);
  el("g", { id: "accuracy" }, map);   // the devices' accuracy circles, under every label
  const labels = el("g", { id: "labels" }, map);
  const floor = (venue.floors || []).find((f) => f.level === level);
  if (floor) {
    if (floor.outline && floor.outline.length) {
      // A floor of several outlines, or with holes (a courtyard), is one path whose holes are left unfilled.
      const parts = [floor.outline, ...(floor.otherOutlines || []), ...(floor.holes || [])];
      if (parts.length > 1) el("path", { class: "outline", "fill-rule": "evenodd", d: rings(parts) }, plan);
      else el("polygon", { class: "outline", points: pts(floor.outline) }, plan);
    }
  }
  for (const z of venue.zones || []) {
    let named = null, largest = -1;
    for (const fence of z.fences || []) {
      if (!onFloor(fence.floor)) continue;
      let shape;
      if (fence.polygon && fence.holes && fence.holes.length)
        shape = el("path", { class: "zone", "fill-rule": "evenodd", d: rings([fence.polygon, ...fence.holes]) }, plan);
      else if (fence.polygon) shape = el("polygon", { class: "zone", points: pts(fence.polygon) }, plan);
      else if (fence.center) shape = el("circle", { class: "zone", cx: fence.center[0], cy: -fence.center[1], r: fence.radius }, plan);
      if (!shape) continue;
      shape.dataset.zone = z.id;
      el("title", {}, shape).textContent = roomLabel(z.name || z.id, occupancy.get(z.id));
      const area = fence.polygon ? Math.abs(polygonArea(fence.polygon)) : Math.PI * fence.radius * fence.radius;
      if (area > largest) { largest = area; named = fence; }
    }
    // One name per room and floor, in its largest fence.
    if (named) {
      const text = el("text", { class: "label off" }, labels);
      text.dataset.zone = z.id;
      placeNames.push({ text, name: roomLabel(shownName(z.name || z.id), occupancy.get(z.id)), shape: shapeOf(named),
                        kind: "room", area: largest, zone: z });
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
  // Walls over the rooms' borders, which are faint where walls are drawn: a door is a gap that shows.
  if (floor && (floor.walls || []).length) {
    plan.classList.add("walled");
    for (const [[x1, y1], [x2, y2]] of floor.walls) el("line", { class: "wall", x1, y1: -y1, x2, y2: -y2 }, plan);
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

// Each node's health (GET /v1/venues/{id}/nodes), asked every 10 s: a node that is offline (its gateway said so) or
// silent (nothing heard through it for a while) is drawn grey, with its status in its tooltip.
export const nodeHealth = new Map();   // node id -> {status, lastHeard, sightingsPerMinute}
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
export async function refreshNodes() {
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

// Draws or moves device fix.device's marker (removed when the fix is on another floor), with its label and tooltip.
export function drawDevice(fix) {
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

// Marks the zones someone is inside as occupied: by the server's count when the map has it, else by the devices
// seen checking in.
export function markZones() {
  for (const shape of map.querySelectorAll(".zone")) {
    const count = occupancy.get(shape.dataset.zone);
    shape.classList.toggle("occupied", count !== undefined ? count > 0 : (inside.get(shape.dataset.zone) || new Set()).size > 0);
    if (count !== undefined) shape.dataset.count = count;
  }
}

// Zone `zone` holds `count` now (an occupancy event, or the occupancy route): its label and tooltip say so.
export function showOccupancy(zone, count) {
  occupancy.set(zone, count);
  // While looking back (history.js), the rooms show their counts at the scrubber's time; the live ones come back after.
  if (document.body.classList.contains("history")) return;
  const z = (venue.zones || []).find((candidate) => candidate.id === zone);
  if (!z) return;
  for (const item of placeNames) if (item.zone === z) item.name = roomLabel(shownName(z.name || z.id), count);
  for (const shape of map.querySelectorAll(".zone")) {
    if (shape.dataset.zone === zone) shape.querySelector("title").textContent = roomLabel(z.name || z.id, count);
  }
  markZones();
  render();
}
