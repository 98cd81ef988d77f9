// The label layout's rules (layout.js) under node --test: boxes, where a name may go in its room, the places around a
// device marker, names shortened with "…".
import assert from "node:assert/strict";
import { test } from "node:test";
import { DOT, PAD, anchors, around, free, shortened, splitLines } from "../../Sources/IndoorServer/Resources/layout.js";

test("a box is free when it overlaps none placed; touching edges do not overlap", () => {
  const placed = [{ l: 0, r: 10, t: 0, b: 10 }];
  assert.ok(!free({ l: 5, r: 15, t: 5, b: 15 }, placed));
  assert.ok(free({ l: 10, r: 20, t: 0, b: 10 }, placed));
  assert.ok(free({ l: 0, r: 10, t: 10, b: 20 }, placed));
  assert.ok(free({ l: 0, r: 1, t: 0, b: 1 }, []));
  assert.ok(PAD > 0);
});

test("the eight places around a marker: right first, then left, the corners, above, below; none on the marker", () => {
  const [w, h] = [40, 14];
  const places = around(w, h);
  assert.equal(places.length, 8);
  assert.ok(places[0][0] > DOT, "the first is right of the marker");
  assert.ok(places[1][0] + w < -DOT, "the second is left of it");
  const marker = { l: -DOT, r: DOT, t: -DOT, b: DOT };
  for (const [dx, dy] of places) assert.ok(free({ l: dx, r: dx + w, t: dy, b: dy + h }, [marker]), `${dx}, ${dy}`);
  assert.ok(places[6][1] + h < 0 && places[7][1] > 0, "above, then below");
});

test("candidate places for a name: the centroid first, then points inside the room, at most twelve", () => {
  const room = { polygon: [[0, 0], [100, 0], [100, 60], [0, 60]] };
  const candidates = anchors(room, 1000, 1000);
  assert.deepEqual(candidates[0], [50, 30]);
  assert.ok(candidates.length <= 12 && candidates.length > 2);
  const [cx, cy] = candidates[0];
  let last = 0;
  for (const [x, y] of candidates.slice(2)) {
    assert.ok(x > 0 && x < 100 && y > 0 && y < 60);
    const d = Math.round(Math.hypot(x - cx, y - cy));
    assert.ok(d >= last, "nearest the centroid first");
    last = d;
  }
  assert.deepEqual(anchors({ cx: 5, cy: 6, r: 3 }, 100, 100), [[5, 6]]);
});

test("a room partly off the map: the grid covers only the part on it", () => {
  const room = { polygon: [[-100, 0], [100, 0], [100, 50], [-100, 50]] };
  for (const [x] of anchors(room, 1000, 1000).slice(1)) assert.ok(x >= 0);
});

test("names shortened with … at a letter count, whole when they fit", () => {
  const letters = Array.from("Conference room");
  assert.equal(shortened(letters, 99), "Conference room");
  assert.equal(shortened(letters, letters.length), "Conference room");
  assert.equal(shortened(letters, 11), "Conference…");   // the space before the cut goes
  assert.equal(shortened(Array.from("Büro 🚪 zwei"), 6), "Büro 🚪…");
});

test("names on several lines: the split that makes the longest line shortest", () => {
  assert.deepEqual(splitLines("Clinical Engineering", 2), ["Clinical", "Engineering"]);
  assert.deepEqual(splitLines("Room of the Head Nurse", 2), ["Room of the", "Head Nurse"]);
  assert.deepEqual(splitLines("Major Trauma Centre", 3), ["Major", "Trauma", "Centre"]);
  assert.deepEqual(splitLines("MRC Epidemiology Unit", 2), ["MRC Epidemiology", "Unit"]);
  assert.deepEqual(splitLines("  Büro  zwei ", 2), ["Büro", "zwei"]);
  assert.deepEqual(splitLines("Kitchen", 1), ["Kitchen"]);
  assert.equal(splitLines("Kitchen", 2), null);
  assert.equal(splitLines("a b", 3), null);
  assert.equal(splitLines("", 1), null);
});
