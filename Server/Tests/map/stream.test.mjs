// The live stream's events (stream.js's parseEvent) under node --test: Server-Sent Events as the server sends them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseEvent } from "../../Sources/IndoorServer/Resources/stream.js";

test("an event: its name, data and id", () => {
  assert.deepEqual(parseEvent('event: fix\nid: 42\ndata: {"fix": {"device": "a"}}'),
    { name: "fix", data: '{"fix": {"device": "a"}}', id: "42" });
});

test("data lines join with newlines; one space after the colon goes, more stay", () => {
  assert.deepEqual(parseEvent("data: one\ndata:two\ndata:  three"), { name: "message", data: "one\ntwo\n three",
                                                                       id: undefined });
});

test("a heartbeat (a comment) has no data; an id alone is kept", () => {
  assert.deepEqual(parseEvent(": heartbeat"), { name: "message", data: null, id: undefined });
  assert.deepEqual(parseEvent("id: 7"), { name: "message", data: null, id: "7" });
  assert.deepEqual(parseEvent("id"), { name: "message", data: null, id: "" });
});

test("a device-erased event: its name and data, no id (the stream's last id stays)", () => {
  assert.deepEqual(parseEvent('event: device-erased\ndata: {"venue":"tiny","device":"anon-3f9c"}'),
    { name: "device-erased", data: '{"venue":"tiny","device":"anon-3f9c"}', id: undefined });
});
