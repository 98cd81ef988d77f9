// ---- The live map: opens a venue (its plan, devices, activity and stream), follows the floor and venue chosen,
// and says in the status line how the stream and the venue's survey stand.

import { addFeed, clearFeed, dropFromFeed, onZone } from "./activity.js";
import { api, key, params } from "./api.js";
import { forgetHistoryDevice } from "./history.js";
import { drawDevice, drawPlan, nodeHealth, refreshNodes, showOccupancy } from "./plan.js";
import { devices, edit, editorHooks, forgetDevice, inside, occupancy, rooms, setLevel, setVenue, surveys, venue }
  from "./state.js";
import { connect, forgetLastEvent } from "./stream.js";

const statusLine = document.getElementById("status");
let live = false;   // whether the stream is connected

// Opens venue `id`: its plan (the first floor), devices, the latest activity and the stream.
async function openVenue(id) {
  if (edit) editorHooks.stop(true);
  setVenue(await api("/v1/venues/" + encodeURIComponent(id)));
  const floors = document.getElementById("floor");
  floors.innerHTML = "";
  for (const f of venue.floors || []) floors.add(new Option(f.name || "Level " + f.level, f.level));
  setLevel((venue.floors || []).length ? venue.floors[0].level : null);
  devices.clear(); rooms.clear(); inside.clear(); occupancy.clear(); clearFeed(); forgetLastEvent();
  nodeHealth.clear();
  for (const fix of (await api("/v1/venues/" + encodeURIComponent(id) + "/devices")).devices) {
    devices.set(fix.device, fix);
    if (fix.room) rooms.set(fix.device, fix.room);
  }
  const activity = await api("/v1/activity?venue=" + encodeURIComponent(id) + "&limit=50");
  for (const v of activity.visits) {
    if (v.checkOut === undefined || v.checkOut === null) {
      const set = inside.get(v.zone) || new Set(); set.add(v.device); inside.set(v.zone, set);
      addFeed("checkIn", v.zoneName, v.device, v.checkIn, undefined, false);
    } else {
      addFeed(v.reason === "crossing" ? "crossing" : "checkOut", v.zoneName, v.device, v.checkOut, v.dwell, false);
    }
  }
  // How many are in each zone now; the stream's occupancy events keep it so.
  for (const z of (await api("/v1/venues/" + encodeURIComponent(id) + "/occupancy")).zones) occupancy.set(z.zone, z.count);
  drawPlan();
  connect(venue.id, key, {
    live() { live = true; showStatus(); },
    broken() { live = false; statusLine.textContent = "reconnecting…"; },
    event(name, payload) {
      if (name === "fix") {
        const fix = payload.fix;
        if (payload.room) rooms.set(fix.device, payload.room);
        devices.set(fix.device, fix);
        drawDevice(fix);
      } else if (name === "zone") {
        onZone(payload.zone);
      } else if (name === "occupancy") {
        showOccupancy(payload.occupancy.zone, payload.occupancy.count);
      } else if (name === "device-erased") {
        // The device's data was erased (DELETE /v1/devices/{device}): the map keeps nothing of it.
        forgetDevice(payload.device);
        dropFromFeed(payload.device);
        forgetHistoryDevice(payload.device);
        drawPlan();
      }
    },
  });
}

document.getElementById("floor").addEventListener("change", (e) => {
  setLevel(Number(e.target.value));
  if (edit) editorHooks.floorChanged();
  drawPlan();
});
document.getElementById("venue").addEventListener("change", (e) => {
  // Another venue leaves the editor: unsaved changes are dropped only when the user says so.
  if (edit && edit.dirty && !confirm("Drop the changes that are not saved?")) { e.target.value = edit.id; return; }
  openVenue(e.target.value).catch(fail);
});

// Says in the status line what went wrong.
function fail(error) { statusLine.textContent = String(error.message || error); }

// "live", and where the venue's positioning comes from while its survey is learned and once it is.
function showStatus() {
  if (!live || !venue) return;
  const survey = surveys.get(venue.id);
  statusLine.textContent = "live" + (survey === "learning" ? " · learning the venue's survey (fixes without it meanwhile)"
    : survey === "learned" ? " · tracking over the survey's radio map"
    : survey === "failed" ? " · the survey could not be learned (see the server's log)" : "");
}

// Notes each venue's survey state from a venue list; while one is being learned, asks again in 10 s.
function noteSurveys(list) {
  for (const v of list.venues) surveys.set(v.id, v.survey);
  showStatus();
  if (list.venues.some((v) => v.survey === "learning")) {
    setTimeout(() => api("/v1/venues").then(noteSurveys).catch(fail), 10000);
  }
}

// Lists the venues and opens the one in the address (`?venue=`), else the first; then asks for the nodes' health.
export function start() {
  (async () => {
    const list = await api("/v1/venues");
    const select = document.getElementById("venue");
    for (const v of list.venues) select.add(new Option(v.name || v.id, v.id));
    noteSurveys(list);
    const wanted = params.get("venue") || (list.venues[0] && list.venues[0].id);
    if (!wanted) { statusLine.textContent = "no venue yet: PUT /v1/venues/{id}"; return; }
    select.value = wanted;
    await openVenue(wanted);
    refreshNodes();
  })().catch(fail);
}
