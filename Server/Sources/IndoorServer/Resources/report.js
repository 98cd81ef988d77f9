// ---- The zone report panel (docs/ANALYTICS.md), opened from the history bar's Report button over the plan: for the
// history bar's period, `GET …/reports/zones` in a bucket that suits it (hours up to 3 days, then days, then weeks;
// or the one chosen), drawn as plain SVG per zone: occupancy over time (mean per bucket as bars, the peak as a
// tick) and the dwell distribution (median and 90th percentile per bucket), the busiest hours of the period over all
// zones (from the same route by hour), every number in a table, and the route's CSV as a download.

import { api, key } from "./api.js";
import { seconds } from "./format.js";
import { barHeight, busiestHours, byZone, chooseBucket, niceMax } from "./history-plan.js";
import { el } from "./view.js";

const $ = (id) => document.getElementById(id);
const panel = $("report"), bucketSelect = $("report-bucket"), csvLink = $("report-csv"), stateLine = $("report-state");
const zonesBox = $("report-zones"), busiestList = $("report-busiest"), tableBox = $("report-table");

let period = null;   // {venue, from, to, when}: the history bar's period
let asked = 0;       // the latest request's number: an older answer is dropped
let csvAddress = "";
let shown = null;    // {report, hours}: what is drawn, drawn again at another width

// For tests and tools: the report drawn (the route's JSON answer) and the hour report of its busiest hours.
window.indoorReport = { report: () => shown && shown.report, hours: () => shown && shown.hours };

export function closeReport() {
  panel.hidden = true;
  $("history-report").setAttribute("aria-expanded", "false");
}

// The report of `next`'s period ({venue, from, to, when: a time in words}); opens the panel when `show`, else only
// when it is open.
export function refreshReport(next, show = false) {
  period = next;
  if (show) { panel.hidden = false; $("history-report").setAttribute("aria-expanded", "true"); clearBar(); }
  if (panel.hidden || !period || !(period.to > period.from)) return;
  load().catch((error) => { stateLine.textContent = String(error.message || error); });
}

async function load() {
  const number = ++asked;
  const { venue, from, to } = period;
  const bucket = bucketSelect.value || chooseBucket(from, to);
  const path = "/v1/venues/" + encodeURIComponent(venue) + "/reports/zones?from=" + from + "&to=" + to;
  stateLine.textContent = "Reading the report…";
  const report = await api(path + "&bucket=" + bucket);
  // The busiest hours need the period by hour (at most 2000 of them).
  const hours = bucket === "hour" ? report : (to - from) / 3600 <= 1990 ? await api(path + "&bucket=hour") : null;
  const response = await fetch(path + "&bucket=" + bucket, { headers: { "Authorization": "Bearer " + key, "Accept": "text/csv" } });
  if (!response.ok) throw new Error(response.status + " " + response.statusText);
  const csv = await response.blob();
  if (number !== asked) return;
  if (csvAddress) URL.revokeObjectURL(csvAddress);
  csvAddress = URL.createObjectURL(csv);
  csvLink.href = csvAddress;
  csvLink.download = "zones-" + venue + "-" + bucket + ".csv";
  shown = { report, hours };
  stateLine.textContent = "";
  draw();
}

// Draws `shown`: the period line, the busiest hours, each zone's two charts and the table.
function draw() {
  if (!shown || panel.hidden) return;
  const { report, hours } = shown;
  const when = period.when;
  $("report-period").textContent = "From " + when(report.from) + " to " + when(report.to) + " (whole " + report.bucket
    + "s, time zone " + report.timeZone + ")" + (report.storedSince ? "; visits stored since " + when(report.storedSince) : "; no visits stored") + ".";
  busiestList.innerHTML = "";
  if (!hours) busiestList.appendChild(item("(a period of more than 1990 hours: choose a shorter one)"));
  else {
    const busiest = busiestHours(hours.rows, 5);
    for (const h of busiest) {
      const li = item(hourName(h.local) + " · " + h.occupancy.toFixed(2) + " in the zones on average, peak " + h.peak
        + ", " + h.visits + (h.visits === 1 ? " visit" : " visits"));
      li.dataset.start = h.start; li.dataset.occupancy = h.occupancy; li.dataset.visits = h.visits; li.dataset.peak = h.peak;
      busiestList.appendChild(li);
    }
    if (!busiest.length) busiestList.appendChild(item("nobody in any zone in this period"));
  }
  const zones = byZone(report.rows);
  const occupancyTop = niceMax(Math.max(0, ...report.rows.map((r) => r.peakOccupancy)));
  const dwellTop = niceMax(Math.max(0, ...report.rows.map((r) => r.dwell90 || 0)));
  const width = Math.max(220, zonesBox.clientWidth - 4);
  zonesBox.innerHTML = "";
  for (const zone of zones) {
    const box = document.createElement("section");
    box.className = "report-zone";
    box.dataset.zone = zone.zone;
    const title = document.createElement("h4");
    const visits = zone.rows.reduce((sum, r) => sum + r.visits, 0);
    title.textContent = (zone.name || zone.zone) + " · " + visits + (visits === 1 ? " visit" : " visits");
    box.appendChild(title);
    box.appendChild(chart(zone.rows, width, "occupancy", occupancyTop, (v) => String(v)));
    box.appendChild(chart(zone.rows, width, "dwell", dwellTop, (v) => seconds(v)));
    zonesBox.appendChild(box);
  }
  if (!zones.length) zonesBox.appendChild(item("The venue has no zones."));
  table(report.rows);
}
const item = (text) => { const li = document.createElement("li"); li.textContent = text; return li; };
// "2026-11-29 14:00–15:00" from a bucket's local start (ISO 8601 with its offset).
function hourName(local) {
  const hour = Number(local.slice(11, 13));
  return local.slice(0, 10) + " " + local.slice(11, 16) + "–" + String((hour + 1) % 24).padStart(2, "0") + ":00";
}

// One zone's chart over the buckets, `width` pixels wide: "occupancy" (the mean occupancy as a bar, the peak as a
// tick) or "dwell" (the 90th-percentile dwell as a pale bar, the median as a dark one), from 0 to `top`.
function chart(rows, width, kind, top, label) {
  const height = 64, left = 44, bottom = 14, plot = height - bottom - 4, band = (width - left - 4) / Math.max(1, rows.length);
  const svg = el("svg", { class: "report-chart " + kind, width, height, viewBox: "0 0 " + width + " " + height,
                          role: "img" });
  svg.setAttribute("aria-label", kind === "occupancy" ? "Occupancy per bucket: mean bars, peak ticks"
    : "Dwell per bucket: median and 90th percentile");
  const y = (v) => 4 + plot - barHeight(v, top, plot);
  el("line", { class: "axis", x1: left, y1: 4 + plot, x2: width - 4, y2: 4 + plot }, svg);
  el("text", { class: "tick", x: left - 4, y: 4 + plot, "text-anchor": "end" }, svg).textContent = "0";
  el("text", { class: "tick", x: left - 4, y: 12, "text-anchor": "end" }, svg).textContent = label(top);
  el("text", { class: "tick", x: left - 4, y: 4 + plot / 2 + 4, "text-anchor": "end" }, svg).textContent =
    kind === "occupancy" ? "inside" : "dwell";
  rows.forEach((row, i) => {
    const x = left + i * band, w = Math.max(1, band - 2);
    const mark = (cls, value, inset) => {
      const rect = el("rect", { class: cls, x: (x + 1 + inset).toFixed(2), y: y(value).toFixed(2),
                                width: Math.max(1, w - 2 * inset).toFixed(2), height: (4 + plot - y(value)).toFixed(2) }, svg);
      rect.dataset.start = row.start; rect.dataset.value = value;
      return rect;
    };
    if (kind === "occupancy") {
      const bar = mark("mean", row.meanOccupancy, 0);
      el("title", {}, bar).textContent = row.local + ": " + row.meanOccupancy.toFixed(2) + " inside on average, peak "
        + row.peakOccupancy + ", " + row.visits + " visits";
      const tick = el("line", { class: "peak", x1: (x + 1).toFixed(2), x2: (x + 1 + w).toFixed(2), y1: y(row.peakOccupancy).toFixed(2),
                                y2: y(row.peakOccupancy).toFixed(2) }, svg);
      tick.dataset.start = row.start; tick.dataset.value = row.peakOccupancy;
    } else if (row.dwell90 !== undefined && row.dwell90 !== null) {
      el("title", {}, mark("p90", row.dwell90, 0)).textContent = row.local + ": 90% of dwells under " + seconds(row.dwell90);
      el("title", {}, mark("median", row.dwellMedian, w / 4)).textContent = row.local + ": median dwell " + seconds(row.dwellMedian);
    }
  });
  if (rows.length) {
    el("text", { class: "tick", x: left, y: height - 2 }, svg).textContent = rows[0].local.slice(5, 16).replace("T", " ");
    if (rows.length > 1) el("text", { class: "tick", x: width - 4, y: height - 2, "text-anchor": "end" }, svg).textContent =
      rows[rows.length - 1].local.slice(5, 16).replace("T", " ");
  }
  return svg;
}

// Every number of the report in a table, each cell with the route's value in `data-value`.
function table(rows) {
  const columns = [["zone", "zone"], ["start", "local"], ["visits", "visits"], ["devices", "devices"],
    ["median dwell", "dwellMedian"], ["p90 dwell", "dwell90"], ["mean inside", "meanOccupancy"], ["peak", "peakOccupancy"]];
  const t = document.createElement("table");
  const head = t.createTHead().insertRow();
  for (const [name] of columns) { const th = document.createElement("th"); th.textContent = name; head.appendChild(th); }
  const body = t.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    tr.dataset.zone = row.zone; tr.dataset.start = row.start;
    for (const [, field] of columns) {
      const cell = tr.insertCell();
      cell.dataset.field = field;
      const value = row[field];
      if (value === undefined || value === null) { cell.textContent = "–"; continue; }
      cell.dataset.value = value;
      cell.textContent = field === "local" ? value.slice(0, 16).replace("T", " ")
        : field === "meanOccupancy" ? value.toFixed(2) : field.startsWith("dwell") ? value.toFixed(1) + " s" : String(value);
    }
  }
  tableBox.innerHTML = "";
  tableBox.appendChild(t);
}

bucketSelect.addEventListener("change", () => refreshReport(period));
$("report-close").addEventListener("click", closeReport);
let lastWidth = 0;
new ResizeObserver(() => {
  const width = zonesBox.clientWidth;
  if (Math.abs(width - lastWidth) > 8) { lastWidth = width; draw(); }
}).observe(panel);
// The panel ends above the history bar, however many lines the bar wraps onto.
function clearBar() {
  const bar = $("history-bar");
  if (!bar.hidden) panel.style.bottom = (bar.offsetHeight + 16) + "px";
}
new ResizeObserver(clearBar).observe($("history-bar"));
