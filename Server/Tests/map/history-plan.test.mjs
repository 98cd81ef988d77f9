// What looking back works out (history-plan.js) under node --test.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  HEAT_STEPS, HeatGrid, TrackWindow, activityAt, advance, occupancyAt, barHeight, busiestHours, byZone, cellSize, chooseBucket,
  fromLocalInput, heatLegend, heatStep, niceMax, parsePage, stepSeconds, toLocalInput,
} from "../../Sources/IndoorServer/Resources/history-plan.js";

const fix = (device, t, x, y, floor = 0) => ({ device, t, x, y, floor });

test("a history page: its fixes, and the next page's href from its last line", () => {
  const text = JSON.stringify(fix("a", 1, 2, 3)) + "\n" + JSON.stringify(fix("b", 2, 4, 5)) + "\n"
    + JSON.stringify({ kind: "next", cursor: "c1", href: "/v1/venues/v/history?from=0&to=9&cursor=c1" }) + "\n";
  const page = parsePage(text);
  assert.deepEqual(page.fixes.map((f) => f.device), ["a", "b"]);
  assert.equal(page.next, "/v1/venues/v/history?from=0&to=9&cursor=c1");
  assert.deepEqual(parsePage(""), { fixes: [], next: null });
});

test("positions at a time: each device's latest fix at or before it, within the hold, as ?at= with a window", () => {
  const track = new TrackWindow();
  track.add([fix("a", 10, 0, 0), fix("b", 11, 5, 5), fix("a", 12, 1, 0), fix("a", 14, 2, 0), fix("b", 80, 6, 6, 1)]);
  let at = track.positionsAt(13, 60);
  assert.deepEqual([...at.keys()].sort(), ["a", "b"]);
  assert.equal(at.get("a").x, 1);          // held at t = 12, not interpolated towards t = 14
  assert.equal(track.positionsAt(14, 60).get("a").x, 2);   // a fix exactly at the time counts
  // b's fix at 11 is 60 s before 71: outside the window (the route takes fixes after at - window).
  at = track.positionsAt(71, 60);
  assert.equal(at.has("b"), false);
  assert.equal(at.get("a").t, 14);
  assert.equal(track.positionsAt(70.5, 60).get("b").t, 11);
  // The floor of the latest fix decides.
  assert.deepEqual([...track.positionsAt(80, 100, 0).keys()], ["a"]);
  assert.deepEqual([...track.positionsAt(80, 100, 1).keys()], ["b"]);
  assert.equal(track.positionsAt(5, 60).size, 0);
});

test("tails: each shown device's fixes of the last seconds, on its floor, in time order; old fixes dropped", () => {
  const track = new TrackWindow();
  track.add([fix("a", 0, 0, 0), fix("a", 10, 1, 0), fix("a", 20, 2, 0, 1), fix("a", 30, 3, 0), fix("a", 40, 4, 0),
    fix("b", 35, 9, 9)]);
  const positions = track.positionsAt(40, 60, 0);
  const tails = track.tailsAt(40, positions, 30);
  assert.deepEqual(tails.get("a"), [[1, 0], [3, 0], [4, 0]]);   // t 10 … 40, not the fix on floor 1
  assert.deepEqual(tails.get("b"), [[9, 9]]);
  track.dropBefore(30);
  assert.equal(track.size, 3);
  assert.equal(track.positionsAt(25, 60).size, 0);
  track.add([{ device: "c", t: 50 }]);   // no position: not kept
  assert.equal(track.size, 3);
  track.forget("a");   // erased
  assert.deepEqual(track.fixes.map((f) => f.device), ["b"]);
});

test("heatmap: fixes counted per cell on the chosen floor, hottest first, without keeping the fixes", () => {
  const grid = new HeatGrid(1, 0);
  for (const f of [fix("a", 0, 0.2, 0.3), fix("a", 1, 0.9, 0.9), fix("b", 1, 1.5, 0.5), fix("a", 2, -0.5, 0.5),
    fix("a", 3, 0.5, 0.5, 1), { device: "c", t: 4, x: 0.5, y: 0.5 }]) grid.add(f);
  const cells = grid.cells();
  assert.deepEqual(cells[0], { x: 0, y: 0, size: 1, count: 3, column: 0, row: 0 });   // the floorless fix counts
  assert.deepEqual(cells.slice(1).map((c) => [c.x, c.y, c.count]), [[-1, 0, 1], [1, 0, 1]]);
  assert.equal(grid.total, 5);
  assert.equal(grid.max, 3);
  assert.equal(new HeatGrid(2, null).size, 2);
});

test("heatmap: cell size from the floor's extent, colour steps and the legend", () => {
  assert.equal(cellSize([0, 0, 30, 20]), 1);
  assert.equal(cellSize([0, 0, 120, 20]), 1);
  assert.equal(cellSize([0, 0, 121, 20]), 2);
  assert.equal(cellSize([0, 0, 500, 300]), 5);
  assert.equal(cellSize([0, 0, 5000, 300]), 50);
  assert.equal(cellSize(null), 1);
  assert.equal(heatStep(10, 10), HEAT_STEPS);
  assert.equal(heatStep(1, 10), 1);
  assert.equal(heatStep(0, 10), 0);
  assert.equal(heatStep(5, 10), 3);
  assert.deepEqual(heatLegend(10).map((r) => [r.from, r.to]), [[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]);
  // Few fixes: fewer rows, none empty, the last ending at the hottest cell's count.
  assert.deepEqual(heatLegend(2).map((r) => [r.step, r.from, r.to]), [[3, 1, 1], [5, 2, 2]]);
  assert.deepEqual(heatLegend(0), []);
  // Every count from 1 to max falls in the legend row of its colour step.
  for (const max of [1, 3, 7, 26, 1000]) for (let c = 1; c <= max; c++) {
    const row = heatLegend(max).find((r) => c >= r.from && c <= r.to);
    assert.equal(row.step, heatStep(c, max), `count ${c} of ${max}`);
  }
});

test("report: the bucket for the period, the axis and the bars", () => {
  assert.equal(chooseBucket(0, 3600), "hour");
  assert.equal(chooseBucket(0, 3 * 86400), "hour");
  assert.equal(chooseBucket(0, 3 * 86400 + 1), "day");
  assert.equal(chooseBucket(0, 120 * 86400), "day");
  assert.equal(chooseBucket(0, 365 * 86400), "week");
  assert.equal(niceMax(0), 1);
  assert.equal(niceMax(0.3), 0.5);
  assert.equal(niceMax(1), 1);
  assert.equal(niceMax(1.2), 2);
  assert.equal(niceMax(3), 5);
  assert.equal(niceMax(7), 10);
  assert.equal(niceMax(420), 500);
  assert.equal(barHeight(2.5, 5, 40), 20);
  assert.equal(barHeight(9, 5, 40), 40);
  assert.equal(barHeight(1, 0, 40), 0);
});

test("report: rows by zone in order, and the busiest hours over all zones", () => {
  const row = (zone, start, mean, visits, peak) => ({ zone, name: zone.toUpperCase(), start, end: start + 3600,
    local: "h" + start, visits, devices: visits, meanOccupancy: mean, peakOccupancy: peak });
  const rows = [row("k", 0, 0.5, 2, 1), row("k", 3600, 2, 1, 3), row("k", 7200, 0, 0, 0),
    row("m", 0, 1, 4, 2), row("m", 3600, 0, 0, 0), row("m", 7200, 0, 1, 0)];
  assert.deepEqual(byZone(rows).map((z) => [z.zone, z.name, z.rows.length]), [["k", "K", 3], ["m", "M", 3]]);
  const hours = busiestHours(rows, 5);
  assert.deepEqual(hours.map((h) => [h.start, h.occupancy, h.visits, h.peak]), [[3600, 2, 1, 3], [0, 1.5, 6, 2], [7200, 0, 1, 0]]);
  assert.equal(busiestHours(rows, 1).length, 1);
  assert.deepEqual(busiestHours([], 5), []);
});

test("the activity list at a time: ended visits as check-outs, open ones as check-ins, newest first", () => {
  const visits = [
    { device: "a", zoneName: "K", checkIn: 10, checkOut: 50, dwell: 40, reason: "left" },
    { device: "b", zoneName: "M", checkIn: 20, checkOut: null },
    { device: "c", zoneName: "L", checkIn: 30, checkOut: 30, reason: "crossing" },
    { device: "d", zoneName: "K", checkIn: 70, checkOut: 90, dwell: 20 },
  ];
  assert.deepEqual(activityAt(visits, 40).map((l) => [l.kind, l.device, l.t]),
    [["crossing", "c", 30], ["checkIn", "b", 20], ["checkIn", "a", 10]]);
  assert.deepEqual(activityAt(visits, 60).map((l) => [l.kind, l.device, l.t, l.dwell]),
    [["checkOut", "a", 50, 40], ["crossing", "c", 30, undefined], ["checkIn", "b", 20, undefined]]);
});

test("who was in each zone at a time: open visits then, crossings not", () => {
  const visits = [
    { zone: "k", checkIn: 10, checkOut: 50 }, { zone: "k", checkIn: 20, checkOut: null },
    { zone: "m", checkIn: 30, checkOut: 30, reason: "crossing" }, { zone: "m", checkIn: 45, checkOut: 90 },
  ];
  assert.deepEqual([...occupancyAt(visits, 40)], [["k", 2]]);
  assert.deepEqual([...occupancyAt(visits, 50)].sort(), [["k", 1], ["m", 1]]);   // out at 50: not inside at 50
  assert.deepEqual([...occupancyAt(visits, 5)], []);
});

test("playing and stepping, and the period's fields", () => {
  assert.equal(advance(100, 500, 10, 1000), 105);
  assert.equal(advance(998, 1000, 60, 1000), 1000);
  assert.equal(stepSeconds(1), 1);
  assert.equal(stepSeconds(30), 30);
  const t = 1764400000;
  assert.equal(fromLocalInput(toLocalInput(t)), t);
  assert.match(toLocalInput(t), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  assert.equal(fromLocalInput(toLocalInput(t).slice(0, 16)), t - new Date(t * 1000).getSeconds());
  assert.ok(Number.isNaN(fromLocalInput("yesterday")));
});
