// ---- Survey mode (docs/SURVEY.md): with the admin key, records a site survey while walking. Pick the device being
// carried, press Record, tap the plan where you are at each turn or doorway ("Hold here" first for a spot you stand
// at), Stop. The marks and their path are drawn over the plan beside the device's live fix; after the stop the venue
// relearns, and the bar says what the survey bought (the median error on its walks without it and with it,
// cross-validated) while the plan shows its coverage (dense, thin or missing, per cell). The admin key is the editor's,
// kept in this browser's local storage and sent in a header.

import { adminKeyName } from "./editor-state.js";
import { boughtText, coverageCells, devicesByRecency, isTap } from "./survey-plan.js";
import { devices, edit, level, overlays, venue } from "./state.js";
import { el, map, pointerAt, toVenue, view } from "./view.js";
import { render } from "./zoom.js";

const bar = document.getElementById("survey-bar");
const opener = document.getElementById("survey");
const keyForm = document.getElementById("survey-key");
const deviceInput = document.getElementById("survey-device");
const record = document.getElementById("survey-record");
const hold = document.getElementById("survey-hold");
const holdSeconds = document.getElementById("survey-hold-seconds");
const stateLine = document.getElementById("survey-state");
const boughtLine = document.getElementById("survey-bought");

// {venue, id, device} of the recording running, the marks it took ({x, y, floor, hold}), a hold armed for the next
// tap, the end of the hold in progress (ms), the last survey read and the press under way.
const survey = { recording: null, marks: [], holdArmed: false, holdEnds: 0, read: null, press: null };

// For tests and tools: what survey mode holds now.
window.indoorSurvey = {
  recording: () => survey.recording && { ...survey.recording },
  marks: () => survey.marks.map((m) => ({ ...m })),
  survey: () => survey.read,
};

const say = (text) => { stateLine.textContent = text; };

// A request with the admin key: the JSON answer, or an Error with the status and the server's message (a refused key
// is forgotten and asked for again).
async function admin(path, method = "GET", body) {
  const key = localStorage.getItem(adminKeyName);
  if (!key) { keyForm.hidden = false; throw new Error("give the admin key"); }
  const headers = { "Authorization": "Bearer " + key };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await response.json().catch(() => ({}));
  if (response.status === 401 || response.status === 403) { localStorage.removeItem(adminKeyName); keyForm.hidden = false; }
  if (!response.ok) throw new Error(response.status + " " + (answer.message || response.statusText));
  return answer;
}
const base = () => "/v1/venues/" + encodeURIComponent(venue.id) + "/survey";

function open() {
  if (!venue) return;
  if (edit) { alert("Close the editor first."); return; }
  if (document.body.classList.contains("history")) { alert("Leave the history (Live) first."); return; }
  bar.hidden = false;
  document.body.classList.add("surveying");
  opener.setAttribute("aria-pressed", "true");
  keyForm.hidden = !!localStorage.getItem(adminKeyName);
  const list = document.getElementById("survey-devices");
  list.innerHTML = "";
  for (const id of devicesByRecency(devices.values())) list.appendChild(new Option(id));
  if (!deviceInput.value) deviceInput.value = list.options.length ? list.options[0].value : "";
  showButtons();
  say("Pick the device you carry, then Record.");
  refresh().catch((error) => say(String(error.message || error)));
}
function close() {
  if (survey.recording && !confirm("Stop the recording and close survey mode?")) return;
  if (survey.recording) stop();
  bar.hidden = true;
  document.body.classList.remove("surveying");
  opener.setAttribute("aria-pressed", "false");
  survey.read = null;
  render();
}
function showButtons() {
  record.textContent = survey.recording ? "Stop" : "Record";
  record.classList.toggle("recording", !!survey.recording);
  hold.disabled = !survey.recording;
  hold.setAttribute("aria-pressed", String(survey.holdArmed));
  deviceInput.disabled = !!survey.recording;
}

async function start() {
  const device = deviceInput.value.trim();
  if (!device) { say("Give the id of the device you carry."); deviceInput.focus(); return; }
  const answer = await admin(base() + "/recordings", "POST", { device });
  survey.recording = { venue: venue.id, id: answer.id, device };
  survey.marks = []; survey.holdArmed = false; survey.holdEnds = 0;
  showButtons();
  say("Recording " + device + ": tap the plan where you are at each turn or doorway.");
  render();
}
async function stop() {
  const recording = survey.recording;
  survey.recording = null; survey.holdArmed = false;
  showButtons();
  try {
    await admin(base() + "/recordings/" + recording.id + "/stop", "POST");
    say("Stopped: " + survey.marks.length + " marks. The venue relearns its survey.");
  } catch (error) {
    say("Not stopped: " + (error.message || error));
  }
  refresh().catch(() => {});
}

// A mark where the plan was tapped at (px, py) pixels: now, or held for the seconds given when "Hold here" was armed.
async function mark(px, py) {
  if (Date.now() < survey.holdEnds) {
    say("Still holding: " + Math.ceil((survey.holdEnds - Date.now()) / 1000) + " s left.");
    return;
  }
  const [x, y] = toVenue(px, py).map((v) => Math.round(v * 1000) / 1000);
  const body = { x, y };
  if (level !== null) body.floor = level;
  const seconds = survey.holdArmed ? Math.max(1, Number(holdSeconds.value) || 10) : 0;
  if (seconds) body.hold = seconds;
  survey.holdArmed = false;
  showButtons();
  try {
    const answer = await admin(base() + "/recordings/" + survey.recording.id + "/marks", "POST", body);
    survey.marks.push({ x: answer.x, y: answer.y, floor: answer.floor, hold: answer.hold });
    if (seconds) { survey.holdEnds = Date.now() + seconds * 1000; say("Holding here for " + seconds + " s."); }
    else say("Mark " + survey.marks.length + " at " + x.toFixed(1) + ", " + y.toFixed(1) + " m.");
  } catch (error) {
    say("Mark refused: " + (error.message || error));
  }
  render();
}

// Reads the venue's survey; while it is being learned, reads it again every 2 s.
async function refresh() {
  if (!venue || bar.hidden) return;
  const id = venue.id;
  const read = await admin(base());
  if (!venue || venue.id !== id || bar.hidden) return;
  survey.read = read;
  boughtLine.textContent = boughtText(read.state, read.validation);
  render();
  if (read.state === "learning") setTimeout(() => refresh().catch(() => {}), 2000);
}

opener.addEventListener("click", () => bar.hidden ? open() : close());
document.getElementById("survey-close").addEventListener("click", close);
record.addEventListener("click", () => (survey.recording ? stop() : start()).catch((e) => say(String(e.message || e))));
hold.addEventListener("click", () => { survey.holdArmed = !survey.holdArmed; showButtons();
  if (survey.holdArmed) say("Tap where you stand: it is held for " + (Number(holdSeconds.value) || 10) + " s."); });
keyForm.addEventListener("submit", (e) => {
  e.preventDefault();
  const input = document.getElementById("survey-key-input");
  if (!input.value.trim()) return;
  localStorage.setItem(adminKeyName, input.value.trim());
  input.value = "";
  keyForm.hidden = true;
  refresh().catch((error) => say(String(error.message || error)));
});
// A tap on the plan while recording is a mark; a drag still pans (zoom.js).
map.addEventListener("pointerdown", (e) => {
  if (!survey.recording || !e.isPrimary) { survey.press = null; return; }
  const [x, y] = pointerAt(e);
  survey.press = { x, y, t: e.timeStamp };
});
map.addEventListener("pointerup", (e) => {
  const press = survey.press;
  survey.press = null;
  if (!press || !survey.recording || !e.isPrimary) return;
  const [x, y] = pointerAt(e);
  if (isTap(press, { x, y, t: e.timeStamp })) mark(x, y);
});
map.addEventListener("pointercancel", () => { survey.press = null; });

// Draws the survey over the plan at each paint: the coverage cells, the marks and their path on the chosen floor, and
// the carried device's marker picked out.
overlays.push(() => {
  const viewport = document.getElementById("viewport");
  let layer = document.getElementById("survey-layer");
  if (bar.hidden || !viewport) { if (layer) layer.remove(); return; }
  if (!layer || layer.parentNode !== viewport) layer = el("g", { id: "survey-layer" }, viewport);
  layer.innerHTML = "";
  const floor = (venue.floors || []).find((f) => f.level === level);
  const cells = survey.recording ? [] : coverageCells(survey.read && survey.read.coverage, floor && floor.outline, level);
  for (const c of cells) {
    const cell = el("rect", { class: "coverage " + c.kind, x: c.x, y: -(c.y + c.size), width: c.size, height: c.size }, layer);
    el("title", {}, cell).textContent = c.kind === "missing" ? "not surveyed" : c.rows + " truth rows (" + c.kind + ")";
  }
  const shown = survey.marks.filter((m) => level === null || m.floor === undefined || m.floor === null || m.floor === level);
  if (shown.length > 1) el("polyline", { class: "survey-path", points: shown.map((m) => m.x + "," + (-m.y)).join(" ") }, layer);
  const r = 7 / view.scale;
  for (const m of shown) el("circle", { class: "survey-mark" + (m.hold ? " hold" : ""), cx: m.x, cy: -m.y, r }, layer);
  for (const group of document.querySelectorAll("#devices .device"))
    group.classList.toggle("surveyed", !!survey.recording && group.dataset.device === survey.recording.device);
});
