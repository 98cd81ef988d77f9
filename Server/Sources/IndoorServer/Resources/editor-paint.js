// The editor's marks, in pixels over the plan: the selection, the corners of the selected room, the anchor, what
// is being drawn and the server's error at the item it names.

import { currentFloor, fencesHere } from "./editor-state.js";
import { rad } from "./geometry.js";
import { edit, venue } from "./state.js";
import { el, project, view } from "./view.js";

export function paintEditor() {
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
