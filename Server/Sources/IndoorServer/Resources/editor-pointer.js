// ---- Pointing on the plan. Handles within 10 px are taken: a node, a corner of the selected room, the anchor.

import { anchorForm, anchorPoint } from "./editor-anchor.js";
import { cancelForm } from "./editor-form.js";
import { imageForm, imagePixel } from "./editor-image.js";
import { connectionForm, nodeForm, roomForm, select } from "./editor-items.js";
import { change, currentFloor, deleteSelected, fencesHere, nodesHere, setTool, showState, undo } from "./editor-state.js";
import { floorImages, imageKey } from "./floor-image.js";
import { mm, pointIn, polygonArea } from "./geometry.js";
import { drawPlan } from "./plan.js";
import { edit, level, venue } from "./state.js";
import { map, pointerAt, project, toVenue } from "./view.js";
import { render } from "./zoom.js";

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
export function editorPointerDown(e) {
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
export function editorPointerMove(e) {
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
export function editorPointerUp(e, cancelled) {
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
export function editorKey(e) {
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
