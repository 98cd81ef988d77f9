// ---- The floor's image, from the editor: uploaded, placed and removed at once (not part of the draft or undo).

import { closeForm, numbers, showForm } from "./editor-form.js";
import { adminKeyName, askKey, setTool, showState } from "./editor-state.js";
import { drawFloorImage, floorImages, imageKey, imagePath, loadFloorImage, placementOf } from "./floor-image.js";
import { imageMatrix } from "./geometry.js";
import { edit, level, venue } from "./state.js";

async function adminFetch(path, options) {
  const admin = localStorage.getItem(adminKeyName);
  if (!admin) { askKey(); throw new Error("an admin key is needed"); }
  const response = await fetch(path, Object.assign({}, options, {
    headers: Object.assign({ "Authorization": "Bearer " + admin }, options.headers || {}) }));
  const body = await response.json().catch(() => null);
  if (response.status === 401 || response.status === 403) { localStorage.removeItem(adminKeyName); askKey(); }
  if (!response.ok) throw new Error((body && body.message) || response.status + " " + response.statusText);
  return body;
}
function forgetImage() {
  const entry = floorImages.get(imageKey());
  if (entry && entry.url) URL.revokeObjectURL(entry.url);
  floorImages.delete(imageKey());
}
document.getElementById("edit-image").addEventListener("change", async (e) => {
  const file = e.target.files && e.target.files[0];
  if (!file || !edit || level === null) return;
  if (file.size > 10 * 1024 * 1024) { showState("The image is larger than 10 MiB: not uploaded."); return; }
  showState("Uploading the floor plan image…");
  try {
    await adminFetch(imagePath(edit.id, level), { method: "PUT", body: file,
      headers: { "Content-Type": file.type || "application/octet-stream" } });
    forgetImage();
    await loadFloorImage(edit.id, level);
    drawFloorImage(floorImages.get(imageKey()));
    showState("Image uploaded: place it by two points and the distance between them (Place image…).");
    imageForm();
  } catch (error) {
    showState("Image not uploaded: " + (error.message || error));
  }
  e.target.value = "";
});
document.getElementById("edit-image-place").addEventListener("click", () => imageForm());
document.getElementById("edit-image-remove").addEventListener("click", async () => {
  if (!edit || !floorImages.get(imageKey()) || !confirm("Remove this floor's plan image?")) return;
  try {
    await adminFetch(imagePath(edit.id, level), { method: "DELETE" });
    forgetImage();
    floorImages.set(imageKey(), null);
    drawFloorImage(null);
    showState("Image removed.");
  } catch (error) { showState("Image not removed: " + (error.message || error)); }
});
// The placement form; `picked` are image points picked on the plan (the "pick" tool), else the placement's.
export function imageForm(picked) {
  const entry = floorImages.get(imageKey());
  if (!entry) { showState("This floor has no image: choose a file first."); return; }
  const p = placementOf(entry);
  const [[u1, v1], [u2, v2]] = picked || p.imagePoints;
  showForm("Place the floor plan image", [
    { name: "u1", label: "Point 1 x (px)", value: u1, numeric: true }, { name: "v1", label: "Point 1 y (px)", value: v1, numeric: true },
    { name: "u2", label: "Point 2 x (px)", value: u2, numeric: true }, { name: "v2", label: "Point 2 y (px)", value: v2, numeric: true },
    { name: "distance", label: "Distance between (m)", value: p.distanceMeters, numeric: true },
    { name: "x", label: "Point 1 at x (m)", value: p.at[0], numeric: true }, { name: "y", label: "Point 1 at y (m)", value: p.at[1], numeric: true },
    { name: "rotation", label: "Rotation (° counter-clockwise)", value: p.rotationDegrees || 0, numeric: true },
  ], (values) => {
    const { v, problem } = numbers(values, ["u1", "v1", "u2", "v2", "distance", "x", "y", "rotation"]);
    if (problem) return problem;
    if (v.u1 === v.u2 && v.v1 === v.v2) return { field: "u2", message: "the two points must differ" };
    if (!(v.distance > 0)) return { field: "distance", message: "the distance is more than 0 m" };
    const placement = { imagePoints: [[v.u1, v.v1], [v.u2, v.v2]], distanceMeters: v.distance, at: [v.x, v.y], rotationDegrees: v.rotation };
    const id = edit.id, lvl = level;
    adminFetch(imagePath(id, lvl) + "/placement", { method: "PUT", body: JSON.stringify(placement),
      headers: { "Content-Type": "application/json" } }).then((info) => {
      const current = floorImages.get(id + "/" + lvl);
      if (current) current.info = info;
      if (venue && venue.id === id && level === lvl) drawFloorImage(current);
      showState("Image placed.");
    }).catch((error) => showState("Image not placed: " + (error.message || error)));
  });
  const form = document.getElementById("edit-form");
  const pick = document.createElement("button");
  pick.type = "button"; pick.textContent = "Pick the two points on the plan";
  pick.addEventListener("click", () => { closeForm(); setTool("pick"); edit.picked = []; });
  form.querySelector(".buttons").appendChild(pick);
}
// The image pixel (u, v) under the venue point (x, y), through the inverse of the image's matrix.
export function imagePixel(entry, x, y) {
  const [a, b, c, d, e, f] = imageMatrix(placementOf(entry));
  const [X, Y] = [x - e, -y - f], det = a * d - b * c;
  return [Math.round((d * X - c * Y) / det * 10) / 10, Math.round((a * Y - b * X) / det * 10) / 10];
}
