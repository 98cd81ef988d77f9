// What the page shows, shared by its modules: the venue (or the editor's draft), the chosen floor, the devices'
// latest fixes and rooms, who is inside each zone; and questions about the venue shown (what is on the chosen
// floor, its extent, a room's name without the floor). No DOM here.

export let venue = null;   // the venue shown: as the server gave it, or the editor's draft while editing
export let level = null;   // the chosen floor's level; null for a venue without floors
export let edit = null;    // the editor's state while editing (editor.js), else null
export function setVenue(value) { venue = value; }
export function setLevel(value) { level = value; }
export function setEdit(value) { edit = value; }
export const surveys = new Map();   // venue id -> its survey's state (GET /v1/venues: none, learning, learned, failed)
export const devices = new Map();   // device id -> latest fix
export const rooms = new Map();     // device id -> its held room ({state, zone, zoneName}), as the server last said
export const inside = new Map();    // zone id -> Set of devices
export const occupancy = new Map(); // zone id -> how many are inside, as the server last said (occupancy events)
// What is painted over the plan at each frame after the labels (survey mode's marks and coverage): functions of no
// arguments, called in order.
export const overlays = [];

// What the editor does at the viewer's events while it edits (`edit` is set): filled in by editor.js, so that the
// viewer needs no import of the editor.
export const editorHooks = {
  paint() {},                       // draws the editor's marks over the plan
  pointerDown: () => false,         // true when the editor took the press
  pointerMove: () => false,         // true when the editor took the move
  pointerUp() {},                   // (event, cancelled)
  key: () => false,                 // true when the key was the editor's
  stop() {},                        // (quietly): leaves the editor
  floorChanged() {},                // another floor was chosen
};

// Forgets `device` everywhere the map keeps it (its fix, its room, the zones it is inside), as after its erasure;
// a zone left with nobody inside is dropped too.
export function forgetDevice(device) {
  devices.delete(device);
  rooms.delete(device);
  for (const [zone, set] of inside) {
    set.delete(device);
    if (set.size === 0) inside.delete(zone);
  }
}

// Whether a thing on `floor` (none: every floor) is on the chosen floor.
export const onFloor = (floor) => floor === undefined || floor === null || level === null || floor === level;

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
  for (const f of venue.floors || []) if (keepFloor(f.level)) [f.outline || [], ...(f.otherOutlines || [])].forEach((p) => p.forEach(add));
  for (const n of venue.nodes || []) if (keepFloor(n.floor)) add([n.x, n.y]);
  for (const z of venue.zones || []) for (const f of z.fences || []) if (keepFloor(f.floor)) addShape(f);
  for (const c of venue.connections || []) if (keepConnection(c)) addShape(c);
  if (!xs.length) return null;
  return [Math.min(...xs) - 2, Math.min(...ys) - 2, Math.max(...xs) + 2, Math.max(...ys) + 2];
}
// The chosen floor's extent, else the whole venue's, else 20 m around the origin.
export function bounds() {
  return extent(onFloor, (c) => level === null || (c.levels || []).includes(level))
    || extent(() => true, () => true) || [-10, -10, 10, 10];
}

// The name a room is shown by: without the chosen floor ("Room N1 (floor 0)" on floor 0 → "Room N1").
export function shownName(name) {
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
