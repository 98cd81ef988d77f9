// ---- Looking back on the live map (docs/ANALYTICS.md): the header's History button opens a bar over the plan with a
// period (from, to), a time scrubber that plays it at 1×–60×, pauses and steps, a heatmap of the period's fixes and the
// zone report (report.js). While it is open the plan shows the devices where the store says they were at the
// scrubber's time instead of live, with their last 30 s of path, the rooms' counts and the activity list as they
// stood then; Live (or another venue) returns to live, which the stream kept up meanwhile.
//
// Playback reads `GET …/history?from=&to=` pages a couple of minutes at a time around the scrubber (history-plan.js's
// TrackWindow keeps only those), and draws each device at its latest fix at or before the scrubber's time and less
// than HOLD_SECONDS before it: held, not interpolated, so a marker is always a stored fix (the same as
// `GET …/history?at=T&window=60`). The heatmap streams every page of the period once and keeps only a count per cell
// of the chosen floor (HeatGrid), never the fixes.

import { api, key } from "./api.js";
import { roomLabel, seconds, when } from "./format.js";
import {
  HOLD_SECONDS, SPEEDS, TAIL_SECONDS, HeatGrid, TrackWindow, activityAt, advance, cellSize, fromLocalInput,
  heatLegend, heatStep, occupancyAt, parsePage, stepSeconds, toLocalInput,
} from "./history-plan.js";
import { placeNames } from "./labels.js";
import { drawPlan } from "./plan.js";
import { closeReport, refreshReport } from "./report.js";
import { bounds, devices, edit, level, overlays, shownName, venue } from "./state.js";
import { el, map, project } from "./view.js";
import { render } from "./zoom.js";

const $ = (id) => document.getElementById(id);
const bar = $("history-bar"), opener = $("history"), period = $("history-period");
const fromInput = $("history-from"), toInput = $("history-to"), lastSelect = $("history-last");
const heatBox = $("history-heat"), playButton = $("history-play"), speedSelect = $("history-speed");
const scrubber = $("history-time"), atOutput = $("history-at"), stateLine = $("history-state");
const legend = $("heat-legend"), feed = $("history-feed"), feedNote = $("history-feed-note");

// Data seconds read per request for playback (a request may take several pages).
const CHUNK_SECONDS = 120;

const history = {
  open: false, unix: true, from: 0, to: 0, t: 0, playing: false, speed: 1, lastFrame: 0,
  track: new TrackWindow(), loadedFrom: NaN, loadedTo: NaN, generation: 0, loadingGeneration: -1,
  heat: null, heatVersion: 0, heatGeneration: 0, heatText: "",
  activityAsked: NaN, activityBusy: false, drawnAt: NaN, error: "", occupancy: new Map(),
};

// For tests and tools: what looking back holds now.
window.indoorHistory = {
  state: () => ({ open: history.open, from: history.from, to: history.to, t: history.t, playing: history.playing,
    speed: history.speed, ready: ready(history.t), drawnAt: history.drawnAt, kept: history.track.size,
    heatTotal: history.heat ? history.heat.total : null, heatCellSize: history.heat ? history.heat.size : null }),
  // Sets the period (seconds) and loads it, as the form does.
  setPeriod: (from, to) => { fillPeriod(from, to); loadPeriod(); },
  seek: (t) => setTime(t),
};

const say = (text) => { stateLine.textContent = text; };
// A failure stays in the bar (before what it says at each paint) until the next period is loaded.
const fail = (error) => { history.error = String(error.message || error); say(history.error); };
const base = () => "/v1/venues/" + encodeURIComponent(venue.id) + "/history";
// A time as the bar shows it: the date and time for Unix times, else the recording's seconds.
export const longWhen = (t) => history.unix ? new Date(t * 1000).toLocaleString() : "t = " + t.toFixed(1) + " s";

for (const speed of SPEEDS) speedSelect.add(new Option(speed + "×", speed));

// GET `path` with the read key as text; an Error with the status and the server's message.
async function text(path) {
  const response = await fetch(path, { headers: { "Authorization": "Bearer " + key } });
  const body = await response.text();
  if (!response.ok) {
    let message = response.statusText;
    try { message = JSON.parse(body).message || message; } catch { /* not JSON */ }
    throw new Error(response.status + " " + message);
  }
  return body;
}
// Reads every history page of `from` … `to` (and `extra` query), handing each page's fixes to `take` while
// `current()` holds; false when it stopped because it no longer did.
async function pages(from, to, extra, take, current) {
  let href = base() + "?from=" + from + "&to=" + to + "&limit=10000" + extra;
  while (href) {
    const answer = await text(href);
    if (!current()) return false;
    const page = parsePage(answer);
    take(page.fixes);
    href = page.next;
  }
  return true;
}

// ---- Opening and closing.

function open() {
  if (!venue) return;
  if (edit) { alert("Close the editor first."); return; }
  if (!$("survey-bar").hidden) { alert("Close survey mode first."); return; }
  history.open = true;
  bar.hidden = false;
  opener.setAttribute("aria-pressed", "true");
  document.body.classList.add("history");
  $("feed").hidden = true; feed.hidden = false; feedNote.hidden = false;
  // Unix time unless the venue's fixes are a recording's seconds; the last hour up to the newest fix or now.
  const latest = Math.max(0, ...[...devices.values()].map((f) => f.t || 0));
  history.unix = latest === 0 || latest >= 1e9;
  for (const input of [fromInput, toInput]) input.type = history.unix ? "datetime-local" : "number";
  const now = history.unix ? Math.max(Date.now() / 1000, latest) : latest;
  fillPeriod(Math.ceil(now) - 3600, Math.ceil(now));
  loadPeriod();
}
export function closeHistory() {
  if (!history.open) return;
  pause();
  history.open = false;
  history.generation++; history.heatGeneration++;
  history.heat = null; history.heatVersion++;
  history.track.clear(); history.loadedFrom = history.loadedTo = NaN; history.activityAsked = NaN;
  bar.hidden = true; legend.hidden = true;
  closeReport();
  opener.setAttribute("aria-pressed", "false");
  document.body.classList.remove("history");
  $("feed").hidden = false; feed.hidden = true; feedNote.hidden = true;
  history.occupancy = new Map();
  drawPlan(false);   // the rooms' live counts and shading again
}

// Puts a period in the form's fields.
function fillPeriod(from, to) {
  fromInput.value = history.unix ? toLocalInput(from) : String(from);
  toInput.value = history.unix ? toLocalInput(to) : String(to);
}
// Loads the period the form says: the scrubber from its first fix, the heatmap and report when shown.
function loadPeriod() {
  const parse = (input) => history.unix ? fromLocalInput(input.value) : Number(input.value);
  const from = parse(fromInput), to = parse(toInput);
  if (!Number.isFinite(from) || !Number.isFinite(to) || !(to > from)) { say("Give a period: from, then a later to."); return; }
  pause();
  history.error = "";
  history.from = from; history.to = to;
  scrubber.min = String(Math.floor(from)); scrubber.max = String(Math.ceil(to));
  setTime(from);
  // The scrubber starts at the period's first fix (a period reaching back before any history starts where it does).
  text(base() + "?from=" + from + "&to=" + to + "&limit=1").then((answer) => {
    const first = parsePage(answer).fixes[0];
    if (first && history.open && history.from === from && history.to === to && history.t === from && !history.playing) {
      setTime(first.t);
    }
  }).catch(fail);
  if (heatBox.checked) countHeat(); else { history.heat = null; history.heatVersion++; legend.hidden = true; }
  refreshReport({ venue: venue.id, from, to, when: longWhen });
}

// ---- The scrubber: the time shown, playing and stepping.

// Shows the period at data time `t` (within the period).
function setTime(t) {
  history.t = Math.min(history.to, Math.max(history.from, t));
  // Far from what is kept (back before it, or well past it): start again around `t`.
  if (!(history.loadedFrom <= history.t - HOLD_SECONDS) || history.t - history.loadedTo > CHUNK_SECONDS) {
    history.generation++;
    history.track.clear();
    history.loadedFrom = history.loadedTo = history.t - HOLD_SECONDS;
  }
  showTime();
  load();
  askActivity();
  render();
}
function showTime() {
  scrubber.value = String(Math.round(history.t));
  atOutput.textContent = longWhen(history.t);
}
// Whether the fixes for data time `t` are all kept.
const ready = (t) => history.loadedFrom <= t - HOLD_SECONDS && history.loadedTo > t;

// Reads history a chunk at a time until a little past the scrubber (more at higher speeds), dropping what it played
// past; one reader at a time, stopped when the scrubber starts again elsewhere.
async function load() {
  const generation = history.generation;
  if (history.loadingGeneration === generation || !history.open) return;
  history.loadingGeneration = generation;
  try {
    for (;;) {
      const target = Math.min(history.t + Math.max(30, history.speed * 10), history.to);
      if (history.loadedTo > target) break;
      const from = history.loadedTo, to = from + CHUNK_SECONDS;
      const current = () => generation === history.generation && history.open;
      if (!await pages(from, to, "", (fixes) => history.track.add(fixes), current)) return;
      history.loadedTo = to;
      // What lies well behind the scrubber is dropped (a step back of up to a minute still finds it).
      const keep = history.t - 2 * HOLD_SECONDS;
      if (keep > history.loadedFrom) { history.track.dropBefore(keep); history.loadedFrom = keep; }
      render();
    }
  } catch (error) {
    fail(error);
  } finally {
    if (history.loadingGeneration === generation) history.loadingGeneration = -1;
  }
}

function play() {
  if (history.t >= history.to) setTime(history.from);
  history.playing = true; history.lastFrame = 0;
  playButton.textContent = "Pause"; playButton.setAttribute("aria-pressed", "true");
  requestAnimationFrame(tick);
}
function pause() {
  history.playing = false;
  playButton.textContent = "Play"; playButton.setAttribute("aria-pressed", "false");
  askActivity();
}
// One frame of play: the scrubber moves on by the wall-clock time since the last frame times the speed, but only
// while the fixes for its time are read (so a device never blinks out because its fixes are still on their way).
function tick(now) {
  if (!history.playing || !history.open) return;
  const elapsed = history.lastFrame ? Math.min(250, now - history.lastFrame) : 0;
  history.lastFrame = now;
  if (ready(history.t)) setTime(advance(history.t, elapsed, history.speed, history.to)); else load();
  if (history.t >= history.to) pause(); else requestAnimationFrame(tick);
}

// ---- The activity list at the scrubber's time: the visits of the 15 minutes before it, as they stood then.

// Pages of 1000 visits read for one time (the rooms' counts), and the lines the list shows of them.
const ACTIVITY_PAGES = 5, ACTIVITY_LINES = 200;

async function askActivity() {
  if (history.activityBusy || !history.open) return;
  // While playing, at most once per second of data time; paused, for the very time shown (the list says which).
  if (history.activityAsked === history.t) return;
  if (history.playing && Math.abs(history.activityAsked - history.t) < 1) return;
  history.activityBusy = true;
  const t = history.t, id = venue.id;
  try {
    const page = "/v1/activity?venue=" + encodeURIComponent(id) + "&from=" + (t - 900) + "&to=" + (t + 0.001)
      + "&limit=1000";
    // Every visit open in the 15 minutes, a page of 1000 at a time, up to ACTIVITY_PAGES pages: the rooms' counts
    // need them all (a busy venue has more than one page), the list shows the newest.
    const visits = [];
    let cursor = null, pages = 0;
    do {
      const answer = await api(page + (cursor ? "&cursor=" + encodeURIComponent(cursor) : ""));
      if (!history.open || !venue || venue.id !== id) return;
      visits.push(...(answer.visits || []));
      cursor = answer.nextCursor || null;
      pages++;
    } while (cursor && pages < ACTIVITY_PAGES);
    history.activityAsked = t;
    showActivity(activityAt(visits, t).slice(0, ACTIVITY_LINES), t, cursor !== null);
    history.occupancy = occupancyAt(visits, t);
    showZones();
  } catch (error) {
    fail(error);
  } finally {
    history.activityBusy = false;
  }
  // The scrubber moved on meanwhile: again, at most twice a second.
  if (history.open && history.activityAsked !== history.t) setTimeout(askActivity, 500);
}
// The rooms as they were at the scrubber's time: each room's label counts who was inside then, and a room someone was
// in is shaded (the live counts and shading come back with the live plan).
function showZones() {
  if (!history.open || !venue) return;
  for (const item of placeNames) {
    if (item.kind !== "room" || !item.zone) continue;
    item.name = roomLabel(shownName(item.zone.name || item.zone.id), history.occupancy.get(item.zone.id));
  }
  for (const shape of map.querySelectorAll(".zone")) {
    const count = history.occupancy.get(shape.dataset.zone) || 0;
    shape.classList.toggle("history-occupied", count > 0);
    shape.dataset.historyCount = count;
  }
  render();
}
function showActivity(lines, t, cut) {
  feedNote.textContent = "At " + longWhen(t) + " (playback"
    + (cut ? "; the newest " + ACTIVITY_PAGES * 1000 + " visits, the counts of a busier venue may be short" : "") + "):";
  feed.innerHTML = "";
  feed.dataset.at = String(t);
  for (const line of lines) {
    const item = document.createElement("li");
    item.className = line.kind;
    item.dataset.device = line.device;
    const words = { checkIn: "is in", checkOut: "checked out of", crossing: "crossed" }[line.kind] || line.kind;
    item.textContent = line.device + " " + words + " " + line.zoneName;
    const small = document.createElement("small");
    small.textContent = (line.kind === "checkIn" ? "since " : "") + when(line.t)
      + (line.dwell !== undefined && line.dwell !== null ? " · dwell " + seconds(line.dwell) : "");
    item.appendChild(small);
    feed.appendChild(item);
  }
  if (!lines.length) feedNote.textContent += " no visits in the 15 minutes before.";
}

// ---- The heatmap: the period's fixes on the chosen floor counted per cell.

async function countHeat() {
  const generation = ++history.heatGeneration;
  const grid = new HeatGrid(cellSize(bounds()), level);
  history.heat = null; history.heatVersion++;
  legend.hidden = true;
  history.heatText = "Heatmap: counting…";
  say(history.heatText);
  // Every floor's fixes, counted here on the chosen one: the route's `floor=` leaves out fixes without a floor (a
  // venue of one floor has none), which count on every floor.
  const current = () => generation === history.heatGeneration && history.open;
  try {
    const done = await pages(history.from, history.to, "", (fixes) => {
      for (const fix of fixes) grid.add(fix);
      say("Heatmap: " + grid.total + " fixes counted…");
    }, current);
    if (!done) return;
  } catch (error) { fail(error); return; }
  history.heat = grid; history.heatVersion++;
  history.heatText = "Heatmap: " + grid.total + " fixes in " + grid.counts.size + " cells of " + grid.size + " m"
    + (grid.total ? ", the hottest " + grid.max + "." : ".");
  say(history.heatText);
  showLegend(grid);
  render();
}
function showLegend(grid) {
  legend.innerHTML = "";
  const title = document.createElement("strong");
  title.textContent = "Fixes per " + grid.size + " m cell";
  legend.appendChild(title);
  for (const row of heatLegend(grid.max)) {
    const line = document.createElement("div");
    const swatch = document.createElement("span");
    swatch.className = "swatch heat-" + row.step;
    line.append(swatch, row.from === row.to ? String(row.from) : row.from + "–" + row.to);
    legend.appendChild(line);
  }
  legend.hidden = !grid.total;
}

// ---- Drawing at each paint: the heatmap's cells in the plan (metres, under the devices), the devices at the
// scrubber's time with their tails (pixels, over everything but the editor's handles).

overlays.push(() => {
  const viewport = document.getElementById("viewport");
  let heat = document.getElementById("heat-layer");
  let layer = document.getElementById("history-layer");
  if (!history.open || !viewport) {
    if (heat) heat.remove();
    if (layer) layer.remove();
    return;
  }
  if (!history.heat) { if (heat) heat.remove(); heat = null; } else if (!heat || heat.parentNode !== viewport
      || heat.dataset.version !== String(history.heatVersion)) {
    if (heat) heat.remove();
    heat = el("g", { id: "heat-layer" }, null);
    const plan = document.getElementById("plan");
    viewport.insertBefore(heat, plan ? plan.nextSibling : null);
    heat.dataset.version = String(history.heatVersion);
    const grid = history.heat, max = grid.max;
    for (const c of grid.cells()) {
      const cell = el("rect", { class: "heat heat-" + heatStep(c.count, max), x: c.x, y: -(c.y + c.size), width: c.size,
                               height: c.size }, heat);
      cell.dataset.count = c.count; cell.dataset.column = c.column; cell.dataset.row = c.row;
      el("title", {}, cell).textContent = c.count + " fixes";
    }
  }
  if (!layer || layer.parentNode !== map) {
    if (layer) layer.remove();
    layer = el("g", { id: "history-layer" }, null);
    map.insertBefore(layer, document.getElementById("handles"));
  }
  layer.innerHTML = "";
  const t = history.t;
  const positions = history.track.positionsAt(t, HOLD_SECONDS, level);
  const tails = history.track.tailsAt(t, positions, TAIL_SECONDS);
  for (const [device, points] of tails) {
    if (points.length < 2) continue;
    const line = el("polyline", { class: "history-tail", points: points.map(([x, y]) => project(x, y).map((v) => v.toFixed(1)).join(",")).join(" ") }, layer);
    line.dataset.device = device;
  }
  for (const [device, fix] of positions) {
    const [px, py] = project(fix.x, fix.y);
    const group = el("g", { class: "history-device" }, layer);
    group.dataset.device = device; group.dataset.x = fix.x; group.dataset.y = fix.y; group.dataset.t = fix.t;
    el("circle", { class: "dot", cx: px.toFixed(2), cy: py.toFixed(2), r: 6 }, group);
    const label = el("text", { x: (px + 9).toFixed(1), y: (py + 4).toFixed(1) }, group);
    label.textContent = device;
    el("title", {}, group).textContent = device + " at " + longWhen(fix.t);
  }
  layer.dataset.at = String(t);
  history.drawnAt = ready(t) ? t : NaN;
  layer.dataset.ready = String(ready(t));
  if (history.error) {
    say(history.error);
  } else if (!history.heatText || !history.heat) {
    say((history.playing ? "Playing at " + history.speed + "× · " : "") + positions.size + (positions.size === 1 ? " device" : " devices")
      + (ready(t) ? "" : " · reading the history…"));
  } else {
    say(history.heatText + " " + positions.size + (positions.size === 1 ? " device" : " devices") + " at the scrubber"
      + (ready(t) ? "." : " · reading the history…"));
  }
});

// Forgets what playback and the heatmap hold of `device` (its data was erased: the stream said so).
export function forgetHistoryDevice(device) {
  if (!history.open) return;
  history.track.forget(device);
  history.activityAsked = NaN;
  askActivity();
  if (history.heat) countHeat();
  render();
}

// ---- The bar's controls.

opener.addEventListener("click", () => history.open ? closeHistory() : open());
$("history-close").addEventListener("click", closeHistory);
period.addEventListener("submit", (e) => { e.preventDefault(); loadPeriod(); });
lastSelect.addEventListener("change", () => {
  const span = Number(lastSelect.value);
  lastSelect.value = "";
  if (!span) return;
  const latest = Math.max(0, ...[...devices.values()].map((f) => f.t || 0));
  const now = history.unix ? Math.max(Date.now() / 1000, latest) : latest;
  fillPeriod(Math.ceil(now) - span, Math.ceil(now));
  loadPeriod();
});
playButton.addEventListener("click", () => history.playing ? pause() : play());
$("history-back").addEventListener("click", () => { pause(); setTime(history.t - stepSeconds(history.speed)); });
$("history-forward").addEventListener("click", () => { pause(); setTime(history.t + stepSeconds(history.speed)); });
speedSelect.addEventListener("change", () => { history.speed = Number(speedSelect.value) || 1; load(); });
scrubber.addEventListener("input", () => { pause(); setTime(Number(scrubber.value)); });
heatBox.addEventListener("change", () => {
  if (heatBox.checked) countHeat();
  else { history.heatGeneration++; history.heat = null; history.heatVersion++; history.heatText = ""; legend.hidden = true; render(); }
});
$("history-report").addEventListener("click", () => refreshReport({ venue: venue.id, from: history.from, to: history.to,
  when: longWhen }, true));
// Another floor: the heatmap counts that floor's fixes. Another venue: back to live.
// (After the viewer has taken the new floor: its listener may come after this one.)
$("floor").addEventListener("change", () => setTimeout(() => {
  if (!history.open) return;
  showZones();
  if (heatBox.checked) countHeat();
}));
$("venue").addEventListener("change", closeHistory);
