// ---- The view: zoom and pan, by code (fit, zoomAt, pan) and by hand, and the repaint after each change.

import { layoutLabels } from "./labels.js";
import { bounds, edit, editorHooks, overlays, venue } from "./state.js";
import { bottomBars, freeSize, map, pointerAt, size, view } from "./view.js";

// Fits the chosen floor (or the whole venue) to the map, above any bar open over its bottom (`freeSize`).
export function fit() {
  if (!venue) return;
  const [minX, minY, maxX, maxY] = bounds();
  const [width, height] = freeSize();
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
export function render() { if (!frame) frame = requestAnimationFrame(() => { frame = 0; paint(); }); }
// One frame: the plan's transform, then what is drawn in pixels over it (labels, the editor's marks).
function paint() {
  const viewport = document.getElementById("viewport");
  if (!venue || !viewport) return;
  viewport.setAttribute("transform", "matrix(" + view.scale + " 0 0 " + view.scale + " " + view.x + " " + view.y + ")");
  map.dataset.scale = view.scale.toFixed(4);
  // A node is 0.35 m wide, but never under 4 px: on a site of 500 m it would vanish.
  const radius = Math.max(.35, 4 / view.scale).toFixed(4);
  for (const node of document.querySelectorAll("circle.node")) node.setAttribute("r", radius);
  layoutLabels();
  for (const paintOverlay of overlays) paintOverlay();
  if (edit) editorHooks.paint();
}

// ---- Zoom and pan by hand: the wheel zooms about the pointer, dragging pans (two fingers pinch), the keys + − 0
// and the arrows (when no form field has the focus), and the buttons + − and fit.
map.addEventListener("wheel", (e) => {
  e.preventDefault();
  const box = map.getBoundingClientRect();
  const delta = e.deltaY * (e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? box.height : 1);
  zoomAt(Math.min(2, Math.max(.5, Math.exp(-delta * .002))), e.clientX - box.left, e.clientY - box.top);
}, { passive: false });
const pointers = new Map();   // pointer id -> [x, y] last seen (pixels in the map)
map.addEventListener("pointerdown", (e) => {
  if (e.pointerType === "mouse" && e.button !== 0) return;
  map.focus({ preventScroll: true });
  map.setPointerCapture(e.pointerId);
  if (edit && editorHooks.pointerDown(e)) return;
  pointers.set(e.pointerId, pointerAt(e));
  map.classList.add("dragging");
});
map.addEventListener("pointermove", (e) => {
  if (edit && editorHooks.pointerMove(e)) return;
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
  if (edit) editorHooks.pointerUp(e, type === "pointercancel");
  pointers.delete(e.pointerId);
  if (!pointers.size) map.classList.remove("dragging");
});
document.addEventListener("keydown", (e) => {
  if (edit && editorHooks.key(e)) { e.preventDefault(); return; }
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
// A bar opened, closed or grown over the bottom of the map: a fitted plan fits again into the room left above it.
const barObserver = new ResizeObserver(() => { if (venue && view.fitted && document.getElementById("viewport")) fit(); });
for (const id of bottomBars) {
  const bar = document.getElementById(id);
  if (bar) barObserver.observe(bar);
}
