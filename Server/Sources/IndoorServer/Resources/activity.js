// ---- The activity list: zone check-ins, check-outs and dwells, newest first.

import { seconds, when } from "./format.js";
import { markZones } from "./plan.js";
import { inside } from "./state.js";

const feed = document.getElementById("feed");

// Empties the list (another venue).
export function clearFeed() { feed.innerHTML = ""; }

// Adds one line: `device` `kind` (checkIn, checkOut, dwell, crossing) `zoneName` at time `t` (seconds), with the
// dwell (seconds) when given; at the top when `prepend`, else at the bottom. The list keeps 200 lines.
export function addFeed(kind, zoneName, device, t, dwell, prepend) {
  const item = document.createElement("li");
  item.className = kind;
  item.dataset.device = device;
  const words = { checkIn: "checked in to", checkOut: "checked out of", dwell: "is dwelling in" }[kind] || kind;
  item.textContent = device + " " + words + " " + zoneName;
  const small = document.createElement("small");
  small.textContent = when(t) + (dwell !== undefined && dwell !== null ? " · dwell " + seconds(dwell) : "");
  item.appendChild(small);
  if (prepend) feed.prepend(item); else feed.appendChild(item);
  while (feed.children.length > 200) feed.lastChild.remove();
}

// Removes every line naming `device` (its data was erased).
export function dropFromFeed(device) {
  for (const item of [...feed.children]) if (item.dataset.device === device) item.remove();
}

// A zone event of the stream: who is inside the zone, and a line in the list.
export function onZone(event) {
  const set = inside.get(event.zone) || new Set();
  if (event.event === "checkIn" && event.willCheckOut !== false) set.add(event.device);
  if (event.event === "checkOut") set.delete(event.device);
  inside.set(event.zone, set);
  markZones();
  addFeed(event.event, event.zoneName, event.device, event.t, event.dwell, true);
}
