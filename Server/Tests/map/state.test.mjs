// Questions about the venue shown (state.js) under node --test: what is on the chosen floor, the extent the map
// fits, a room's name without the floor.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import {
  bounds, devices, forgetDevice, inside, onFloor, rooms, setLevel, setVenue, shownName,
} from "../../Sources/IndoorServer/Resources/state.js";

const venue = {
  id: "v",
  floors: [{ level: 0, name: "Ground floor", outline: [[0, 0], [20, 0], [20, 10], [0, 10]] },
           { level: 1, name: "First floor", outline: [[0, 0], [30, 0], [30, 12], [0, 12]] }],
  nodes: [{ id: "n", x: 25, y: 5, floor: 1 }],
  zones: [{ id: "z", fences: [{ center: [5, 5], radius: 2, floor: 0 }] }],
};

beforeEach(() => { setVenue(venue); setLevel(0); });

test("on the chosen floor: a thing on it, or on every floor", () => {
  assert.ok(onFloor(0));
  assert.ok(onFloor(undefined) && onFloor(null));
  assert.ok(!onFloor(1));
  setLevel(null);
  assert.ok(onFloor(1));
});

test("the extent fitted: the chosen floor's with 2 m around, else the venue's, else 20 m about the origin", () => {
  assert.deepEqual(bounds(), [-2, -2, 22, 12]);
  setLevel(1);
  assert.deepEqual(bounds(), [-2, -2, 32, 14]);
  setVenue({ id: "empty" });
  assert.deepEqual(bounds(), [-10, -10, 10, 10]);
});

test("a room's name without the chosen floor", () => {
  assert.equal(shownName("Room N1 (floor 0)"), "Room N1");
  assert.equal(shownName("Room N1 · level 0"), "Room N1");
  assert.equal(shownName("Room N1 (Ground floor)"), "Room N1");
  assert.equal(shownName("Room N1, ground floor"), "Room N1");
  assert.equal(shownName("Room N1 (floor 1)"), "Room N1 (floor 1)");
  assert.equal(shownName("floor 0"), "floor 0");   // nothing would be left: the name stays
  assert.equal(shownName(""), "");
  setLevel(-1);
  assert.equal(shownName("Garage (level -1)"), "Garage");
});

test("an erased device is forgotten: its fix, its room, the zones it was inside (a zone left empty goes)", () => {
  devices.set("anna", { device: "anna", x: 1, y: 1 });
  devices.set("bob", { device: "bob", x: 2, y: 2 });
  rooms.set("anna", { state: "room", zone: "z" });
  inside.set("z", new Set(["anna"]));
  inside.set("w", new Set(["anna", "bob"]));
  forgetDevice("anna");
  assert.deepEqual([...devices.keys()], ["bob"]);
  assert.equal(rooms.has("anna"), false);
  assert.equal(inside.has("z"), false);
  assert.deepEqual([...inside.get("w")], ["bob"]);
  forgetDevice("nobody");
  assert.deepEqual([...devices.keys()], ["bob"]);
});
