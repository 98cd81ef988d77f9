// ---- What the editor edits: the forms of nodes, rooms, walls, stairs and lifts, and the selection that opens them.

import { anchorForm } from "./editor-anchor.js";
import { closeForm, metres, showForm } from "./editor-form.js";
import { change, currentFloor, deleteSelected, uniqueID } from "./editor-state.js";
import { mm } from "./geometry.js";
import { edit, level, venue } from "./state.js";
import { map } from "./view.js";
import { render } from "./zoom.js";

// A node's form: a new node at (x, y), or node `index` of the draft.
export function nodeForm(index, x, y) {
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
export function roomForm(index, polygon) {
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
export function connectionForm(index, polygon) {
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

export function select(thing) {
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
