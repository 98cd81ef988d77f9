// The map's SVG element and the view: a point (x, y) in metres is drawn at (x·scale + view.x, −y·scale + view.y)
// pixels. The plan is one group scaled by this; labels and device markers are drawn in pixels at the projected
// points, so they keep their size at every zoom.

const svgNS = "http://www.w3.org/2000/svg";
export const map = document.getElementById("map");

// A new SVG element `name` with `attributes`, appended to `parent` when given.
export function el(name, attributes, parent) {
  const node = document.createElementNS(svgNS, name);
  for (const [k, v] of Object.entries(attributes || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export const view = { scale: 1, x: 0, y: 0, fitScale: 1, fitted: true };
export const project = (x, y) => [x * view.scale + view.x, -y * view.scale + view.y];
// The map's size on screen [width, height] in pixels.
export function size() {
  const box = map.getBoundingClientRect();
  return [box.width, box.height];
}
// The bars laid over the bottom of the map (survey mode, History), when shown.
export const bottomBars = ["survey-bar", "history-bar"];
// The part of the map a fit may fill, [width, height] in pixels from the map's top left: above the bars laid over
// its bottom, so a plan fitted while one is open is not drawn under it (at least a third of the map's height).
export function freeSize() {
  const box = map.getBoundingClientRect();
  let bottom = box.bottom;
  for (const id of bottomBars) {
    const bar = document.getElementById(id);
    if (!bar || bar.hidden) continue;
    const top = bar.getBoundingClientRect().top;
    if (top > box.top && top < bottom) bottom = top - 4;
  }
  return [box.width, Math.max(box.height / 3, bottom - box.top)];
}
// The venue metres [x, y] at the pixel (px, py) of the map: the inverse of `project`.
export const toVenue = (px, py) => [(px - view.x) / view.scale, (view.y - py) / view.scale];
// The pixel (x, y) of the map under a pointer event.
export function pointerAt(e) { const box = map.getBoundingClientRect(); return [e.clientX - box.left, e.clientY - box.top]; }
