// The read key taken from the page's address (address-key.js's keyFromAddress) under node --test.
import assert from "node:assert/strict";
import { test } from "node:test";
import { keyFromAddress } from "../../Sources/IndoorServer/Resources/address-key.js";

test("a key in the fragment is taken out, the venue in the query stays", () => {
  assert.deepEqual(keyFromAddress("?venue=office", "#key=ik_read_abc"),
    { key: "ik_read_abc", search: "?venue=office", hash: "" });
});

test("a key in the query (an older link) is taken out too", () => {
  assert.deepEqual(keyFromAddress("?venue=office&key=k1", ""), { key: "k1", search: "?venue=office", hash: "" });
});

test("the fragment's key wins over the query's; both are taken out; other fragment parts stay", () => {
  assert.deepEqual(keyFromAddress("?key=old", "#key=new&floor=2"), { key: "new", search: "", hash: "#floor=2" });
});

test("no key: nothing changes", () => {
  assert.deepEqual(keyFromAddress("?venue=a", ""), { key: "", search: "?venue=a", hash: "" });
  assert.deepEqual(keyFromAddress("", ""), { key: "", search: "", hash: "" });
});
