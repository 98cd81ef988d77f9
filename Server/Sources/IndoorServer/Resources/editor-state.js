// ---- The editor's state: the admin key, the tool, the draft's changes and undo, and where things are on the
// chosen floor.

import { openSide } from "./drawers.js";
import { closeForm } from "./editor-form.js";
import { drawPlan } from "./plan.js";
import { edit, level, onFloor, setVenue, venue } from "./state.js";
import { map } from "./view.js";
import { render } from "./zoom.js";

export const adminKeyName = "indoorAdminKey";
export const editor = document.getElementById("editor");
// Shows the admin key's form in the editor's panel.
export function askKey() {
  openSide(true);
  editor.hidden = false;
  document.getElementById("edit-panel").hidden = true;
  const form = document.getElementById("edit-key");
  form.hidden = false;
  document.getElementById("edit-key-input").focus();
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
// Chooses the tool (a key of `hints`), with its hint, and forgets what was being drawn.
export function setTool(tool) {
  edit.tool = tool;
  edit.drawing = [];
  for (const b of document.querySelectorAll("#edit-tools [data-tool]")) b.setAttribute("aria-pressed", String(b.dataset.tool === tool));
  document.getElementById("edit-hint").textContent = hints[tool];
  map.classList.toggle("tool", tool !== "select");
  render();
}
// The editor's state line: what happened last.
export function showState(text) { document.getElementById("edit-state").textContent = text; }

// Every change goes through here: the draft before it is kept for undo (at most 200 steps).
export function change(apply, redraw = true) {
  edit.undo.push(JSON.stringify(venue));
  if (edit.undo.length > 200) edit.undo.shift();
  apply();
  edit.dirty = true;
  clearError();
  showState("Changed, not saved (" + edit.undo.length + (edit.undo.length === 1 ? " step" : " steps") + " to undo).");
  if (redraw) drawPlan(false);
}
// Puts the draft back as it was before the last change.
export function undo() {
  if (!edit || !edit.undo.length) { if (edit) showState("Nothing to undo."); return; }
  setVenue(JSON.parse(edit.undo.pop()));
  edit.selected = null; edit.drawing = []; edit.dirty = true;
  closeForm(); clearError();
  showState(edit.undo.length ? "Undone (" + edit.undo.length + " more to undo)." : "Undone: back to the venue as it was opened or last saved.");
  drawPlan(false);
}

export const floorOf = (thing) => thing.floor === undefined || thing.floor === null ? null : thing.floor;
export const nodesHere = () => (venue.nodes || []).map((n, i) => [n, i]).filter(([n]) => onFloor(floorOf(n)));
// The chosen floor of the draft (made when `create` and there is none).
export function currentFloor(create) {
  venue.floors = venue.floors || [];
  let floor = venue.floors.find((f) => f.level === (level === null ? 0 : level));
  if (!floor && create) { floor = { level: level === null ? 0 : level }; venue.floors.push(floor); }
  return floor;
}
// `prefix` and the first number that makes an id not `taken`.
export function uniqueID(prefix, taken) {
  const used = new Set(taken);
  for (let n = 1; ; n++) if (!used.has(prefix + n)) return prefix + n;
}
// The polygon fences of zone z on the chosen floor: [fence index, fence].
export const fencesHere = (z) => (z.fences || []).map((f, i) => [i, f]).filter(([, f]) => f.polygon && onFloor(f.floor));

// Clears the server's error (shown by editor-save.js).
export function clearError() {
  if (!edit) return;
  edit.error = null;
  const box = document.getElementById("edit-error");
  box.hidden = true; box.textContent = "";
}
// Removes the selected thing from the draft.
export function deleteSelected() {
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
