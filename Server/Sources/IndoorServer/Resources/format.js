// Words and times as the page shows them.

// The held room as words: the room's name, "no room", or "room unknown"; "" when the server gave none.
export function roomText(room) {
  if (!room) return "";
  if (room.state === "room") return room.zoneName || room.zone || "";
  if (room.state === "noRoom") return "no room";
  if (room.state === "unknown") return "room unknown";
  return "";
}

// A room's label with how many are inside it (GET /v1/venues/{id}/occupancy, the stream's occupancy events) in
// front, where it survives a name shortened with "…": "2 · Kitchen"; the name alone when nobody is (or unknown).
export function roomLabel(name, count) {
  return count > 0 ? count + " · " + name : name;
}

// A venue on Unix time (from 1e9 s, 2001-09-09, on) shows the wall-clock time; a recording's venue its seconds.
export const when = (t) => t >= 1e9 ? new Date(t * 1000).toLocaleTimeString() : "t = " + t.toFixed(1) + " s";
export const seconds = (s) => s === undefined || s === null ? "" : s < 90 ? s.toFixed(0) + " s" : (s / 60).toFixed(1) + " min";
