// Words and times as the map shows them (format.js) under node --test.
import assert from "node:assert/strict";
import { test } from "node:test";
import { roomLabel, roomText, seconds, when } from "../../Sources/IndoorServer/Resources/format.js";

test("a held room as words", () => {
  assert.equal(roomText(undefined), "");
  assert.equal(roomText({ state: "room", zone: "r1", zoneName: "Lobby" }), "Lobby");
  assert.equal(roomText({ state: "room", zone: "r1" }), "r1");
  assert.equal(roomText({ state: "noRoom" }), "no room");
  assert.equal(roomText({ state: "unknown" }), "room unknown");
  assert.equal(roomText({ state: "other" }), "");
});

test("dwell times: seconds below 90 s, minutes from there", () => {
  assert.equal(seconds(undefined), "");
  assert.equal(seconds(null), "");
  assert.equal(seconds(0), "0 s");
  assert.equal(seconds(89.4), "89 s");
  assert.equal(seconds(90), "1.5 min");
  assert.equal(seconds(600), "10.0 min");
});

test("a recording's venue shows seconds; a venue on Unix time the wall-clock time", () => {
  assert.equal(when(12.34), "t = 12.3 s");
  const t = 1700000000;
  assert.equal(when(t), new Date(t * 1000).toLocaleTimeString());
});

test("a room's label puts how many are inside in front, and nothing when nobody is", () => {
  assert.equal(roomLabel("Kitchen", 2), "2 · Kitchen");
  assert.equal(roomLabel("Kitchen", 1), "1 · Kitchen");
  assert.equal(roomLabel("Kitchen", 0), "Kitchen");
  assert.equal(roomLabel("Kitchen", undefined), "Kitchen");
});
