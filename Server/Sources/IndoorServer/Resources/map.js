"use strict";
const params = new URLSearchParams(location.search);
// The read key comes once in the address (`?key=`), is kept in this browser's local storage and taken out of the
// address bar, so it is not left in the history, in bookmarks or in a copied link; requests carry it in a header.
const key = params.get("key") || localStorage.getItem("indoorKey") || "";
if (params.get("key")) {
  localStorage.setItem("indoorKey", params.get("key"));
  params.delete("key");
  history.replaceState(null, "", location.pathname + (params.toString() ? "?" + params.toString() : "") + location.hash);
}
const svgNS = "http://www.w3.org/2000/svg";
const map = document.getElementById("map");
const feed = document.getElementById("feed");
const statusLine = document.getElementById("status");
let venue = null, level = null, live = false;
const surveys = new Map();   // venue id -> its survey's state (GET /v1/venues: none, learning, learned, failed)
const devices = new Map();   // device id -> latest fix
const rooms = new Map();     // device id -> its held room ({state, zone, zoneName}), as the server last said
const inside = new Map();    // zone id -> Set of devices

async function api(path) {
  const response = await fetch(path, { headers: { "Authorization": "Bearer " + key } });
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(response.status + " " + (body.message || response.statusText));
  }
  return response.json();
}

function el(name, attributes, parent) {
  const node = document.createElementNS(svgNS, name);
  for (const [k, v] of Object.entries(attributes || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

const onFloor = (floor) => floor === undefined || floor === null || level === null || floor === level;
const pts = (points) => points.map(([x, y]) => x + "," + (-y)).join(" ");

function bounds() {
  const xs = [], ys = [];
  const add = ([x, y]) => { xs.push(x); ys.push(y); };
  for (const f of venue.floors || []) (f.outline || []).forEach(add);
  for (const n of venue.nodes || []) add([n.x, n.y]);
  const addShape = (shape) => {
    if (shape.polygon) shape.polygon.forEach(add);
    if (shape.center) { add([shape.center[0] - shape.radius, shape.center[1] - shape.radius]);
                        add([shape.center[0] + shape.radius, shape.center[1] + shape.radius]); }
  };
  for (const z of venue.zones || []) (z.fences || []).forEach(addShape);
  (venue.connections || []).forEach(addShape);
  if (!xs.length) return [-10, -10, 20, 20];
  const minX = Math.min(...xs) - 2, maxX = Math.max(...xs) + 2, minY = Math.min(...ys) - 2, maxY = Math.max(...ys) + 2;
  return [minX, -maxY, maxX - minX, maxY - minY];
}

function drawPlan() {
  map.innerHTML = "";
  map.setAttribute("viewBox", bounds().join(" "));
  const plan = el("g", { id: "plan" }, map);
  const floor = (venue.floors || []).find((f) => f.level === level);
  if (floor) {
    if (floor.outline && floor.outline.length) el("polygon", { class: "outline", points: pts(floor.outline) }, plan);
    for (const [[x1, y1], [x2, y2]] of floor.walls || [])
      el("line", { class: "wall", x1, y1: -y1, x2, y2: -y2 }, plan);
  }
  for (const z of venue.zones || []) {
    for (const fence of z.fences || []) {
      if (!onFloor(fence.floor)) continue;
      let shape;
      if (fence.polygon) shape = el("polygon", { class: "zone", points: pts(fence.polygon) }, plan);
      else if (fence.center) shape = el("circle", { class: "zone", cx: fence.center[0], cy: -fence.center[1], r: fence.radius }, plan);
      if (shape) {
        shape.dataset.zone = z.id;
        const c = fence.polygon ? fence.polygon.reduce(([a, b], [x, y]) => [a + x / fence.polygon.length, b + y / fence.polygon.length], [0, 0]) : fence.center;
        el("text", { class: "label", x: c[0], y: -c[1] }, plan).textContent = z.name;
      }
    }
    for (const line of z.geolines || []) if (onFloor(line.floor)) el("polyline", { class: "geoline", points: pts(line.points) }, plan);
  }
  for (const c of venue.connections || []) {
    if (level !== null && !(c.levels || []).includes(level)) continue;
    let shape;
    if (c.polygon) shape = el("polygon", { class: "connection", points: pts(c.polygon) }, plan);
    else if (c.center) shape = el("circle", { class: "connection", cx: c.center[0], cy: -c.center[1], r: c.radius }, plan);
    if (!shape) continue;
    const kind = c.kind || "stairs";
    shape.dataset.connection = c.id;
    shape.dataset.kind = kind;
    el("title", {}, shape).textContent = kind + " " + c.id + ": floors " + (c.levels || []).join(", ");
    const m = c.polygon ? c.polygon.reduce(([a, b], [x, y]) => [a + x / c.polygon.length, b + y / c.polygon.length], [0, 0]) : c.center;
    const label = el("text", { class: "connection-label", x: m[0], y: -m[1] }, plan);
    label.dataset.connection = c.id;
    label.textContent = kind;
  }
  for (const n of venue.nodes || []) {
    if (!onFloor(n.floor)) continue;
    const node = el("circle", { class: "node", cx: n.x, cy: -n.y, r: .35 }, plan);
    node.dataset.node = n.id;
    el("title", {}, node).textContent = n.id;
  }
  markNodes();
  el("g", { id: "devices" }, map);
  for (const fix of devices.values()) drawDevice(fix);
  markZones();
}

// Each node's health (GET /v1/venues/{id}/nodes), asked every 10 s: a node that is offline (its gateway said so) or
// silent (nothing heard through it for a while) is drawn grey, with its status in its tooltip.
const nodeHealth = new Map();   // node id -> {status, lastHeard, sightingsPerMinute}
function markNodes() {
  for (const circle of document.querySelectorAll("circle.node")) {
    const health = nodeHealth.get(circle.dataset.node);
    if (!health) continue;
    circle.dataset.status = health.status;
    circle.classList.toggle("quiet", health.status !== "online");
    const heard = health.lastHeard ? "last heard " + new Date(health.lastHeard * 1000).toLocaleTimeString() : "never heard";
    circle.querySelector("title").textContent = circle.dataset.node + ": " + health.status + ", " + heard
      + ", " + health.sightingsPerMinute + " sightings/min";
  }
}
async function refreshNodes() {
  if (venue) {
    const id = venue.id;
    const answer = await api("/v1/venues/" + encodeURIComponent(id) + "/nodes").catch(() => null);
    if (answer && venue && venue.id === id) {
      nodeHealth.clear();
      for (const n of answer.nodes) nodeHealth.set(n.id, n);
      markNodes();
    }
  }
  setTimeout(refreshNodes, 10000);
}

function drawDevice(fix) {
  const layer = document.getElementById("devices");
  if (!layer) return;
  let group = layer.querySelector('[data-device="' + CSS.escape(fix.device) + '"]');
  if (!onFloor(fix.floor)) { if (group) group.remove(); return; }
  if (!group) {
    group = el("g", { class: "device" }, layer);
    group.dataset.device = fix.device;
    el("circle", { class: "accuracy", r: 1 }, group);
    el("circle", { class: "dot", r: .45 }, group);
    el("text", { x: .6, y: -.6 }, group);
    el("title", {}, group);
  }
  const room = roomText(rooms.get(fix.device));
  group.querySelector("text").textContent = fix.device + (room ? " · " + room : "");
  group.querySelector("title").textContent = fix.device + (room ? " · room: " + room : "");
  group.dataset.room = room;
  group.querySelector(".accuracy").setAttribute("r", Math.max(.3, fix.accuracy || 1));
  group.setAttribute("transform", "translate(" + fix.x + "," + (-fix.y) + ")");
  group.dataset.x = fix.x; group.dataset.y = fix.y;
  document.getElementById("count").textContent = devices.size === 1 ? "1 device" : devices.size + " devices";
}

// The held room as words: the room's name, "no room", or "room unknown"; "" when the server gave none.
function roomText(room) {
  if (!room) return "";
  if (room.state === "room") return room.zoneName || room.zone || "";
  if (room.state === "noRoom") return "no room";
  if (room.state === "unknown") return "room unknown";
  return "";
}

function markZones() {
  for (const shape of map.querySelectorAll(".zone"))
    shape.classList.toggle("occupied", (inside.get(shape.dataset.zone) || new Set()).size > 0);
}

// A venue on Unix time (from 1e9 s, 2001-09-09, on) shows the wall-clock time; a recording's venue its seconds.
const when = (t) => t >= 1e9 ? new Date(t * 1000).toLocaleTimeString() : "t = " + t.toFixed(1) + " s";
const seconds = (s) => s === undefined || s === null ? "" : s < 90 ? s.toFixed(0) + " s" : (s / 60).toFixed(1) + " min";

function addFeed(kind, zoneName, device, t, dwell, prepend) {
  const item = document.createElement("li");
  item.className = kind;
  const words = { checkIn: "checked in to", checkOut: "checked out of", dwell: "is dwelling in" }[kind] || kind;
  item.textContent = device + " " + words + " " + zoneName;
  const small = document.createElement("small");
  small.textContent = when(t) + (dwell !== undefined && dwell !== null ? " · dwell " + seconds(dwell) : "");
  item.appendChild(small);
  if (prepend) feed.prepend(item); else feed.appendChild(item);
  while (feed.children.length > 200) feed.lastChild.remove();
}

function onZone(event) {
  const set = inside.get(event.zone) || new Set();
  if (event.event === "checkIn" && event.willCheckOut !== false) set.add(event.device);
  if (event.event === "checkOut") set.delete(event.device);
  inside.set(event.zone, set);
  markZones();
  addFeed(event.event, event.zoneName, event.device, event.t, event.dwell, true);
}

// The live stream (Server-Sent Events), read with fetch so that the key travels in a header and never in a URL.
// After a break it reconnects in 2 s and resumes after the last event it had (Last-Event-ID).
let stream = null, lastEventID = null;
function connect() {
  if (stream) stream.abort();
  const controller = new AbortController();
  stream = controller;
  const id = venue.id;
  (async () => {
    while (!controller.signal.aborted) {
      try {
        const headers = { "Authorization": "Bearer " + key, "Accept": "text/event-stream" };
        if (lastEventID) headers["Last-Event-ID"] = lastEventID;
        const response = await fetch("/v1/stream?venue=" + encodeURIComponent(id), { headers, signal: controller.signal });
        if (!response.ok) throw new Error(response.status + " " + response.statusText);
        live = true; showStatus();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value.replace(/\r\n?/g, "\n");
          for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
            dispatch(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        }
      } catch (error) {
        if (controller.signal.aborted) return;
      }
      live = false; statusLine.textContent = "reconnecting…";
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  })();
}

// One event of the stream: its `event`, `id` and `data` lines; comment lines (heartbeats) are skipped.
function dispatch(block) {
  let name = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
    else if (field === "id") lastEventID = value;
  }
  if (!data.length) return;
  const payload = JSON.parse(data.join("\n"));
  if (name === "fix") {
    const fix = payload.fix;
    if (payload.room) rooms.set(fix.device, payload.room);
    devices.set(fix.device, fix);
    drawDevice(fix);
  } else if (name === "zone") {
    onZone(payload.zone);
  }
}

async function openVenue(id) {
  venue = await api("/v1/venues/" + encodeURIComponent(id));
  const floors = document.getElementById("floor");
  floors.innerHTML = "";
  for (const f of venue.floors || []) floors.add(new Option(f.name || "Level " + f.level, f.level));
  level = (venue.floors || []).length ? venue.floors[0].level : null;
  devices.clear(); rooms.clear(); inside.clear(); feed.innerHTML = ""; lastEventID = null;
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
  drawPlan();
  connect();
}

document.getElementById("floor").addEventListener("change", (e) => { level = Number(e.target.value); drawPlan(); });
document.getElementById("venue").addEventListener("change", (e) => openVenue(e.target.value).catch(fail));

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
