// ---- Saving: the whole draft with PUT; a 400 names a JSON path, shown at the item it names; the draft is kept.

import { closeForm, fieldNote } from "./editor-form.js";
import { select } from "./editor-items.js";
import { adminKeyName, askKey, clearError, floorOf, showState } from "./editor-state.js";
import { centroid } from "./geometry.js";
import { drawPlan } from "./plan.js";
import { edit, level, setLevel, setVenue, venue } from "./state.js";
import { render } from "./zoom.js";

export async function save() {
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
    setVenue(JSON.parse(JSON.stringify(body)));
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
  const named = /^((?:nodes|zones|floors|connections|anchor)[\w[\].]*): ([\s\S]*)$/.exec(message);
  if (field === "venue" && named) { field = named[1]; message = named[2]; }
  if (message.startsWith(field + ": ")) message = message.slice(field.length + 2);
  showError(field, message);
  showState("Not saved: the server refused the venue (" + response.status + "). The changes are kept.");
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
    setLevel(floorLevel);
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
