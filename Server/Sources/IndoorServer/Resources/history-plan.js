// ---- What looking back (history.js, report.js; docs/ANALYTICS.md) works out without the page (pure, tested under
// node --test): the history route's pages, the fixes kept for playback and where each device was at a time, the
// heatmap's cells, the report's bucket, chart scale and busiest hours, and the activity list and zones as at a time.

// Playback shows a device at its latest stored fix at or before the scrubber's time and less than HOLD_SECONDS before
// it (held, not interpolated: what is drawn is what the store has, the same as `GET …/history?at=T&window=60`), with
// a tail through its fixes of the TAIL_SECONDS before it.
export const HOLD_SECONDS = 60;
export const TAIL_SECONDS = 30;
// The playback speeds offered (data seconds per wall-clock second).
export const SPEEDS = [1, 2, 5, 10, 30, 60];
// The heatmap's colour steps (the legend's rows).
export const HEAT_STEPS = 5;
// The most heatmap cells across the longer side of the floor: 1 m cells up to 120 m, then coarser (2, 5, 10… m).
export const MAX_CELLS_ACROSS = 120;

// One page of `GET …/history?from=&to=` (NDJSON): {fixes, next}, `next` the next page's href (null on the last).
export function parsePage(text) {
  const fixes = [];
  let next = null;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const item = JSON.parse(line);
    if (item.kind === "next") next = item.href;
    else fixes.push(item);
  }
  return { fixes, next };
}

// The index of the first of `items` (sorted by `t`) with t > `time` (binary search).
function after(items, time) {
  let low = 0, high = items.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (items[middle].t <= time) low = middle + 1; else high = middle;
  }
  return low;
}

// The fixes playback keeps: those of a stretch of data time, in time order, so that only a few minutes of fixes are
// held whatever the period (history.js drops the ones it has played past).
export class TrackWindow {
  constructor() { this.fixes = []; }
  // Adds fixes later than (or as late as) every kept one, in time order (a history page).
  add(fixes) {
    for (const fix of fixes) if (typeof fix.t === "number" && typeof fix.x === "number" && typeof fix.y === "number") this.fixes.push(fix);
  }
  // Forgets the fixes before data time `t`.
  dropBefore(t) {
    let low = 0, high = this.fixes.length;
    while (low < high) { const middle = (low + high) >> 1; if (this.fixes[middle].t < t) low = middle + 1; else high = middle; }
    if (low) this.fixes.splice(0, low);
  }
  clear() { this.fixes = []; }
  // Forgets every fix of `device` (its data was erased).
  forget(device) { this.fixes = this.fixes.filter((fix) => fix.device !== device); }
  get size() { return this.fixes.length; }
  // Where each device was at `t`: its latest fix at or before `t` and after `t - hold` (the history route's `?at=`
  // with `window=hold`), on floor `level` (null: any floor; the latest fix decides the floor). Map device -> fix.
  positionsAt(t, hold = HOLD_SECONDS, level = null) {
    const out = new Map();
    for (let i = after(this.fixes, t) - 1; i >= 0 && this.fixes[i].t > t - hold; i--) {
      const fix = this.fixes[i];
      if (!out.has(fix.device)) out.set(fix.device, fix);
    }
    if (level !== null) for (const [device, fix] of out) if (!onLevel(fix.floor, level)) out.delete(device);
    return out;
  }
  // Each device's path over the `seconds` before `t`: Map device -> [[x, y], …] in time order, its fixes on the
  // floor of `positions`' fix of it (devices not in `positions` have none).
  tailsAt(t, positions, seconds = TAIL_SECONDS) {
    const out = new Map();
    const end = after(this.fixes, t);
    let start = end;
    while (start > 0 && this.fixes[start - 1].t >= t - seconds) start--;
    for (let i = start; i < end; i++) {
      const fix = this.fixes[i];
      const held = positions.get(fix.device);
      if (!held || (held.floor ?? null) !== (fix.floor ?? null)) continue;
      if (!out.has(fix.device)) out.set(fix.device, []);
      out.get(fix.device).push([fix.x, fix.y]);
    }
    return out;
  }
}

// Whether something on `floor` (none: every floor) is on `level`.
const onLevel = (floor, level) => level === null || floor === undefined || floor === null || floor === level;

// The heatmap's cell size (metres) for a floor of extent [minX, minY, maxX, maxY]: 1 m, or the next of 2, 5, 10, 20,
// 50… m that keeps at most MAX_CELLS_ACROSS cells across its longer side.
export function cellSize(extent) {
  const longest = extent ? Math.max(extent[2] - extent[0], extent[3] - extent[1]) : 0;
  let size = 1;
  for (let decade = 1; ; decade *= 10) {
    for (const step of [1, 2, 5]) {
      size = step * decade;
      if (!(longest / size > MAX_CELLS_ACROSS)) return size;
    }
  }
}

// Fixes counted per square cell of `size` metres on floor `level` (null: every floor), one at a time, so that no
// fix is kept: memory grows with the cells the devices visited, not with the fixes.
export class HeatGrid {
  constructor(size, level = null) {
    this.size = size; this.level = level;
    this.counts = new Map();   // "column,row" -> fixes
    this.total = 0;
  }
  add(fix) {
    if (typeof fix.x !== "number" || typeof fix.y !== "number" || !onLevel(fix.floor, this.level)) return;
    const key = Math.floor(fix.x / this.size) + "," + Math.floor(fix.y / this.size);
    this.counts.set(key, (this.counts.get(key) || 0) + 1);
    this.total++;
  }
  // The cells counted: [{x, y, size, count}], x and y the corner of least x and y (metres), most fixes first (then
  // by row and column, so that the order is fixed).
  cells() {
    const out = [];
    for (const [key, count] of this.counts) {
      const [column, row] = key.split(",").map(Number);
      out.push({ x: column * this.size, y: row * this.size, size: this.size, count, column, row });
    }
    return out.sort((a, b) => b.count - a.count || a.row - b.row || a.column - b.column);
  }
  get max() { let m = 0; for (const c of this.counts.values()) if (c > m) m = c; return m; }
}

// The colour step (1 … HEAT_STEPS) of a cell of `count` fixes when the hottest has `max`: equal fifths of the
// hottest's count, so the top step holds the hottest cells.
export function heatStep(count, max) {
  if (!(max > 0) || !(count > 0)) return 0;
  return Math.min(HEAT_STEPS, Math.max(1, Math.ceil(count / max * HEAT_STEPS)));
}
// The legend's rows: [{step, from, to}] fixes per cell for each colour step when the hottest cell has `max`.
export function heatLegend(max) {
  const rows = [];
  if (!(max > 0)) return rows;
  let previous = 0;
  for (let step = 1; step <= HEAT_STEPS; step++) {
    const top = Math.floor(max * step / HEAT_STEPS);
    if (top <= previous) continue;
    rows.push({ step, from: previous + 1, to: top });
    previous = top;
  }
  return rows;
}

// The report's bucket for a period of `from` … `to` (seconds): hours up to 3 days, days up to 120 days, else weeks
// (each well under the route's 2000 buckets).
export function chooseBucket(from, to) {
  const span = to - from;
  if (span <= 3 * 86400) return "hour";
  if (span <= 120 * 86400) return "day";
  return "week";
}

// The top of a chart's axis for values up to `value`: the next of 1, 2, 5 × 10^k at or above it (1 for nothing).
export function niceMax(value) {
  if (!(value > 0)) return 1;
  const decade = Math.pow(10, Math.floor(Math.log10(value)));
  for (const step of [1, 2, 5, 10]) if (step * decade >= value - 1e-12) return step * decade;
  return 10 * decade;
}

// A chart's scale: the pixel height of `value` on an axis from 0 to `top` drawn `height` pixels high.
export const barHeight = (value, top, height) => top > 0 ? Math.max(0, Math.min(1, value / top)) * height : 0;

// The report's rows (`GET …/reports/zones`' `rows`) by zone, in the report's order: [{zone, name, rows}].
export function byZone(rows) {
  const zones = new Map();
  for (const row of rows || []) {
    if (!zones.has(row.zone)) zones.set(row.zone, { zone: row.zone, name: row.name, rows: [] });
    zones.get(row.zone).rows.push(row);
  }
  return [...zones.values()];
}

// The busiest hours of an hour report's `rows`: per hour (bucket start), the zones' mean occupancies summed (people
// in the venue's zones on average), their visits and the highest peak; the `count` busiest by that sum, then by
// visits, then the earlier; hours with nothing are left out. [{start, end, local, occupancy, visits, peak}].
export function busiestHours(rows, count = 5) {
  const hours = new Map();
  for (const row of rows || []) {
    let hour = hours.get(row.start);
    if (!hour) { hour = { start: row.start, end: row.end, local: row.local, occupancy: 0, visits: 0, peak: 0 }; hours.set(row.start, hour); }
    hour.occupancy += row.meanOccupancy || 0;
    hour.visits += row.visits || 0;
    hour.peak = Math.max(hour.peak, row.peakOccupancy || 0);
  }
  return [...hours.values()].filter((h) => h.occupancy > 0 || h.visits > 0)
    .sort((a, b) => b.occupancy - a.occupancy || b.visits - a.visits || a.start - b.start).slice(0, count);
}

// The activity list as it stood at `t`, from visits (`GET /v1/activity`'s) that checked in at or before it: a visit
// that had ended by `t` is its check-out (or crossing) with its dwell, one still open then is its check-in; newest
// first. [{kind, zoneName, device, t, dwell}].
export function activityAt(visits, t) {
  const lines = [];
  for (const v of visits || []) {
    if (!(v.checkIn <= t)) continue;
    const ended = v.checkOut !== undefined && v.checkOut !== null && v.checkOut <= t;
    if (ended) lines.push({ kind: v.reason === "crossing" ? "crossing" : "checkOut", zoneName: v.zoneName, device: v.device, t: v.checkOut, dwell: v.dwell });
    else lines.push({ kind: "checkIn", zoneName: v.zoneName, device: v.device, t: v.checkIn });
  }
  return lines.sort((a, b) => b.t - a.t || (a.device < b.device ? -1 : a.device > b.device ? 1 : 0));
}

// How many were in each zone at `t`, from the same visits: those checked in at or before it and not yet checked out
// (crossings of a geoline are no stay). Map zone id -> count, zones with nobody left out.
export function occupancyAt(visits, t) {
  const counts = new Map();
  for (const v of visits || []) {
    if (!(v.checkIn <= t) || v.reason === "crossing") continue;
    if (v.checkOut !== undefined && v.checkOut !== null && v.checkOut <= t) continue;
    counts.set(v.zone, (counts.get(v.zone) || 0) + 1);
  }
  return counts;
}

// The scrubber's time after `elapsed` wall-clock milliseconds of play at `speed` from `t`, at most `to`.
export const advance = (t, elapsed, speed, to) => Math.min(to, t + elapsed / 1000 * speed);
// One step of the step buttons at `speed`: a second of data time at 1×, `speed` seconds faster.
export const stepSeconds = (speed) => Math.max(1, speed);

// A time for a datetime-local field (the browser's time zone, to the second) and back (seconds; NaN when bad).
export function toLocalInput(t) {
  const d = new Date(Math.round(t) * 1000);
  const two = (n) => String(n).padStart(2, "0");
  return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate()) + "T" + two(d.getHours()) + ":"
    + two(d.getMinutes()) + ":" + two(d.getSeconds());
}
export function fromLocalInput(text) {
  const match = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d))?/.exec(text || "");
  if (!match) return NaN;
  const [, y, mo, d, h, mi, s] = match.map(Number);
  return new Date(y, mo - 1, d, h, mi, s || 0).getTime() / 1000;
}
