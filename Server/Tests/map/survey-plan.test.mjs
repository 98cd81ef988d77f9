// What survey mode works out (survey-plan.js) under node --test.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  DENSE_ROWS, boughtText, coverageCells, devicesByRecency, isTap,
} from "../../Sources/IndoorServer/Resources/survey-plan.js";

const square = [[0, 0], [6, 0], [6, 4], [0, 4]];   // 3 × 2 cells of 2 m

test("coverage: cells walked are dense or thin, the floor's other cells missing", () => {
  const coverage = { cellMeters: 2, cells: [
    { floor: 0, x: 0, y: 0, rows: DENSE_ROWS }, { floor: 0, x: 2, y: 0, rows: DENSE_ROWS - 1 },
    { floor: 1, x: 4, y: 0, rows: 9 },
  ] };
  const cells = coverageCells(coverage, square, 0);
  const kinds = (kind) => cells.filter((c) => c.kind === kind).map((c) => [c.x, c.y]);
  assert.deepEqual(kinds("dense"), [[0, 0]]);
  assert.deepEqual(kinds("thin"), [[2, 0]]);
  // The other floor's cell is not this floor's: (4, 0) is missing here, as are the three cells of the upper row.
  assert.deepEqual(kinds("missing").sort(), [[0, 2], [2, 2], [4, 0], [4, 2]]);
  assert.ok(cells.every((c) => c.size === 2));
  // Every floor's cells when no floor is chosen; cells without a floor on every floor.
  assert.equal(coverageCells(coverage, null, null).length, 3);
  assert.equal(coverageCells({ cellMeters: 2, cells: [{ x: 0, y: 0, rows: 1 }] }, null, 3).length, 1);
});

test("coverage: nothing to draw without a coverage, and only the outline's inside is missing", () => {
  assert.deepEqual(coverageCells(null, square, 0), []);
  assert.deepEqual(coverageCells({ cellMeters: 0, cells: [] }, square, 0), []);
  // An L-shaped floor: the cell outside the L is not missing, it is not the floor's.
  const l = [[0, 0], [4, 0], [4, 2], [2, 2], [2, 4], [0, 4]];
  const missing = coverageCells({ cellMeters: 2, cells: [] }, l, 0).map((c) => [c.x, c.y]).sort();
  assert.deepEqual(missing, [[0, 0], [0, 2], [2, 0]]);
});

test("a tap is a short press that barely moves; a drag or a long press is not", () => {
  assert.equal(isTap({ x: 10, y: 10, t: 0 }, { x: 14, y: 13, t: 200 }), true);
  assert.equal(isTap({ x: 10, y: 10, t: 0 }, { x: 30, y: 10, t: 200 }), false);
  assert.equal(isTap({ x: 10, y: 10, t: 0 }, { x: 10, y: 10, t: 5000 }), false);
});

test("the devices offered: the most recently heard first, ties by id", () => {
  const fixes = [{ device: "b", time: 5 }, { device: "a", time: 9 }, { device: "c", time: 5 }];
  assert.deepEqual(devicesByRecency(fixes), ["a", "b", "c"]);
  assert.deepEqual(devicesByRecency(new Map().values()), []);
});

test("what the survey bought, in words", () => {
  assert.match(boughtText("learning"), /Learning/);
  assert.match(boughtText("failed"), /could not be learned/);
  assert.equal(boughtText("none"), "No survey learned yet.");
  const both = boughtText("learned", { estimator: "knn", validatedMedianMeters: 1.2, withoutSurveyMedianMeters: 2.4 });
  assert.match(both, /without the survey 2\.40 m, with it 1\.20 m \(-50%\)/);
  assert.match(both, /cross-validated; answers from knn/);
  assert.match(boughtText("learned", { estimator: "particle-filter" }), /too few walks/);
  assert.match(boughtText("learned", { estimator: "knn", validatedMedianMeters: 3 }), /with the survey 3\.00 m/);
  const aside = boughtText("learned", { estimator: "without-survey", withoutSurveyMedianMeters: 1.5,
    coverage: { coveredNodes: 4, nodes: 10, radiusMeters: 2.43, minimumShare: 0.9, learned: false } });
  assert.match(aside, /^Not used yet: the survey passes within 2\.4 m of 4 of 10 nodes/);
  assert.match(aside, /Walk near at least 9 of them/);
  const used = boughtText("learned", { estimator: "knn", validatedMedianMeters: 1.2,
    coverage: { coveredNodes: 10, nodes: 10, radiusMeters: 2.4, minimumShare: 0.9, learned: true } });
  assert.match(used, /answers from knn\.$/);
  const short = boughtText("learned", { estimator: "knn", validatedMedianMeters: 1.2,
    coverage: { coveredNodes: 8, nodes: 14, radiusMeters: 3.2, minimumShare: 0.9, learned: true } });
  assert.match(short, /answers from knn\. It passes within 3\.2 m of only 8 of 14 nodes/);
});
