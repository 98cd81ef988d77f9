// ---- The floor's plan image (PUT /v1/venues/{id}/floors/{level}/image), drawn under the plan where its placement
// puts it: two image points (pixels, y down), their distance in metres, the venue point under the first and a
// rotation (degrees counter-clockwise). Fetched with the key in a header and shown from a blob: address.

import { key } from "./api.js";
import { imageMatrix } from "./geometry.js";
import { bounds, level, venue } from "./state.js";
import { el, map } from "./view.js";

export const floorImages = new Map();   // "venue/level" -> {info, url, width, height}, or null when the floor has none
export const imageKey = () => venue.id + "/" + level;
export function imagePath(id, lvl) { return "/v1/venues/" + encodeURIComponent(id) + "/floors/" + encodeURIComponent(lvl) + "/image"; }
export async function loadFloorImage(id, lvl) {
  const name = id + "/" + lvl;
  if (floorImages.has(name)) return floorImages.get(name);
  floorImages.set(name, null);
  const headers = { "Authorization": "Bearer " + key };
  const answer = await fetch(imagePath(id, lvl) + "/placement", { headers });
  if (!answer.ok) return null;
  const info = await answer.json();
  const bytes = await fetch(imagePath(id, lvl), { headers });
  if (!bytes.ok) return null;
  const url = URL.createObjectURL(await bytes.blob());
  const picture = new Image();
  picture.src = url;
  await picture.decode().catch(() => {});
  const entry = { info, url, width: picture.naturalWidth || 1000, height: picture.naturalHeight || 1000 };
  floorImages.set(name, entry);
  return entry;
}
// The placement in force: the stored one, else the image's top edge across the floor's width at its top-left.
export function placementOf(entry) {
  if (entry.info.placement) return entry.info.placement;
  const [minX, , maxX, maxY] = bounds();
  return { imagePoints: [[0, 0], [entry.width, 0]], distanceMeters: Math.max(1, maxX - minX - 4), at: [minX + 2, maxY - 2],
           rotationDegrees: 0 };
}
export function drawFloorImage(entry) {
  const backdrop = document.getElementById("backdrop");
  if (!backdrop) return;
  backdrop.innerHTML = "";
  map.classList.toggle("has-image", !!entry);
  if (!entry) return;
  const m = imageMatrix(placementOf(entry));
  const picture = el("image", { href: entry.url, x: 0, y: 0, width: entry.width, height: entry.height,
    preserveAspectRatio: "none", class: "floor-image", transform: "matrix(" + m.join(" ") + ")" }, backdrop);
  picture.dataset.placed = entry.info.placement ? "1" : "0";
}
export function showFloorImage() {
  if (!venue || level === null) return;
  const id = venue.id, lvl = level;
  if (floorImages.has(id + "/" + lvl)) { drawFloorImage(floorImages.get(id + "/" + lvl)); return; }
  loadFloorImage(id, lvl).then((entry) => {
    if (venue && venue.id === id && level === lvl) drawFloorImage(entry);
  }).catch(() => {});
}
