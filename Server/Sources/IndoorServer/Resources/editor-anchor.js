// ---- The geographic anchor in the editor: the latitude and longitude of the local origin and the bearing of +y
// (FORMATS.md), given by one point with its latitude, longitude and the bearing, or by two points with their
// latitudes and longitudes (geometry.js converts).

import { numbers, showForm } from "./editor-form.js";
import { change, deleteSelected, setTool, showState } from "./editor-state.js";
import { anchorFromTwo, originFor } from "./geometry.js";
import { edit, venue } from "./state.js";
import { render } from "./zoom.js";

// The anchor's form at the venue point (x, y): its latitude and longitude and the bearing give the origin's.
export function anchorForm(x, y) {
  const anchor = venue.anchor || null;
  const atOrigin = x === 0 && y === 0;
  edit.pending = { kind: "anchor", x, y };
  showForm("Geographic anchor", [
    { name: "x", label: "Point x (m)", value: x, numeric: true },
    { name: "y", label: "Point y (m)", value: y, numeric: true },
    { name: "latitude", label: "Its latitude (°)", value: anchor && atOrigin ? anchor.latitude : "", numeric: true, placeholder: "−90…90" },
    { name: "longitude", label: "Its longitude (°)", value: anchor && atOrigin ? anchor.longitude : "", numeric: true, placeholder: "−180…180" },
    { name: "bearingDegrees", label: "Bearing of +y (° clockwise from north)", value: anchor ? anchor.bearingDegrees || 0 : 0, numeric: true },
  ], (values) => {
    const { v, problem } = numbers(values, ["x", "y", "latitude", "longitude", "bearingDegrees"]);
    if (problem) return problem;
    if (Math.abs(v.latitude) > 90) return { field: "latitude", message: "a latitude is in −90…90" };
    if (Math.abs(v.longitude) > 180) return { field: "longitude", message: "a longitude is in −180…180" };
    if (Math.abs(v.bearingDegrees) > 360) return { field: "bearingDegrees", message: "a bearing is in −360…360" };
    const [latitude, longitude] = originFor(v.x, v.y, v.latitude, v.longitude, v.bearingDegrees);
    change(() => { venue.anchor = Object.assign({}, venue.anchor || {}, { latitude, longitude, bearingDegrees: v.bearingDegrees }); });
    edit.selected = { kind: "anchor" };
  }, anchor ? () => deleteSelected() : null);
  const form = document.getElementById("edit-form");
  const two = document.createElement("button");
  two.type = "button"; two.textContent = "Two points…"; two.id = "edit-anchor-two";
  two.title = "Give two points and their latitudes and longitudes instead of a bearing";
  two.addEventListener("click", () => anchorTwoForm(x, y));
  form.querySelector(".buttons").appendChild(two);
}
// The anchor by two points of the plan whose latitudes and longitudes are known: the bearing is the angle between
// the line joining them on the plan and on the Earth (in the first point's tangent plane), the origin the mean of
// what each point gives. Refused when the two distances differ by more than 10 % (a wrong coordinate or scale).
function anchorTwoForm(x, y) {
  setTool("anchor");
  edit.pending = { kind: "anchor2", x, y, next: 2 };
  const field = (name, label, value, extra) => Object.assign({ name, label, value, numeric: true }, extra || {});
  showForm("Geographic anchor by two points", [
    field("x1", "Point 1 x (m)", x), field("y1", "Point 1 y (m)", y),
    field("latitude1", "Point 1 latitude (°)", "", { placeholder: "−90…90" }),
    field("longitude1", "Point 1 longitude (°)", "", { placeholder: "−180…180" }),
    field("x2", "Point 2 x (m)", ""), field("y2", "Point 2 y (m)", ""),
    field("latitude2", "Point 2 latitude (°)", "", { placeholder: "−90…90" }),
    field("longitude2", "Point 2 longitude (°)", "", { placeholder: "−180…180" }),
  ], (values) => {
    const { v, problem } = numbers(values, ["x1", "y1", "latitude1", "longitude1", "x2", "y2", "latitude2", "longitude2"]);
    if (problem) return problem;
    for (const n of [1, 2]) {
      if (Math.abs(v["latitude" + n]) > 90) return { field: "latitude" + n, message: "a latitude is in −90…90" };
      if (Math.abs(v["longitude" + n]) > 180) return { field: "longitude" + n, message: "a longitude is in −180…180" };
    }
    const result = anchorFromTwo(v);
    if (result.problem) return result.problem;
    change(() => { venue.anchor = Object.assign({}, venue.anchor || {}, result.anchor); });
    edit.selected = { kind: "anchor" };
    showState("Anchor set by two points: bearing " + result.anchor.bearingDegrees + "°; the points are "
      + result.plan.toFixed(2) + " m apart on the plan and " + result.earth.toFixed(2) + " m on the Earth. Not saved.");
  });
  // Clicking the plan (with the anchor tool) now fills point 2, then point 1, in turn.
  const form = document.getElementById("edit-form");
  form.querySelector('input[name="latitude1"]').focus();
  render();
}
// Puts the clicked venue point into the two-point form's next point.
export function anchorPoint(x, y) {
  const form = document.getElementById("edit-form"), pending = edit.pending;
  const n = pending.next;
  form.querySelector('input[name="x' + n + '"]').value = x;
  form.querySelector('input[name="y' + n + '"]').value = y;
  pending.next = n === 2 ? 1 : 2;
  if (n === 1) { pending.x = x; pending.y = y; } else { pending.x2 = x; pending.y2 = y; }
  form.querySelector('input[name="latitude' + n + '"]').focus();
  render();
}
