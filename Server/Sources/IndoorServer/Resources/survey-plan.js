// ---- What survey mode shows, worked out without the page (pure, tested under node --test): the coverage cells to
// draw, whether a press on the plan was a tap, the devices to offer (most recent first) and what a survey bought.

import { pointIn } from "./geometry.js";

// The fewest truth rows for a cell to count as dense: 2 s of a walk (the server keeps a truth row every half second).
export const DENSE_ROWS = 4;
// The most a press may move (pixels) and last (milliseconds) and still be a tap (a mark), not a drag (a pan).
export const TAP_PIXELS = 8;
export const TAP_MILLISECONDS = 700;

// The cells to draw for `coverage` (`GET …/survey`'s {cellMeters, cells: [{floor, x, y, rows}]}) on floor `level`
// (null: cells of any floor): every cell the truth passed through, "dense" (DENSE_ROWS rows or more) or "thin", and
// every cell of the floor's `outline` ([[x, y], …] metres; none: no such cells) whose middle is inside it and which
// the truth never reached, "missing". Each {x, y, size, rows, kind}, x and y the corner of least x and y, metres.
export function coverageCells(coverage, outline, level) {
  if (!coverage || !(coverage.cellMeters > 0)) return [];
  const size = coverage.cellMeters;
  const onLevel = (floor) => level === null || floor === undefined || floor === null || floor === level;
  const cells = [];
  const seen = new Set();
  for (const cell of coverage.cells || []) {
    if (!onLevel(cell.floor)) continue;
    const kind = cell.rows >= DENSE_ROWS ? "dense" : "thin";
    cells.push({ x: cell.x, y: cell.y, size, rows: cell.rows, kind });
    seen.add(Math.round(cell.x / size) + "," + Math.round(cell.y / size));
  }
  if (outline && outline.length >= 3) {
    const xs = outline.map((p) => p[0]), ys = outline.map((p) => p[1]);
    const [c0, c1] = [Math.floor(Math.min(...xs) / size), Math.ceil(Math.max(...xs) / size)];
    const [r0, r1] = [Math.floor(Math.min(...ys) / size), Math.ceil(Math.max(...ys) / size)];
    // A floor of many thousand cells is not painted cell by cell.
    if ((c1 - c0) * (r1 - r0) <= 40000) {
      for (let row = r0; row < r1; row++) for (let column = c0; column < c1; column++) {
        if (seen.has(column + "," + row)) continue;
        if (!pointIn(outline, (column + .5) * size, (row + .5) * size)) continue;
        cells.push({ x: column * size, y: row * size, size, rows: 0, kind: "missing" });
      }
    }
  }
  return cells;
}

// Whether a press that went down at `down` and up at `up` ({x, y} pixels, t milliseconds) was a tap.
export function isTap(down, up) {
  return Math.hypot(up.x - down.x, up.y - down.y) <= TAP_PIXELS && up.t - down.t <= TAP_MILLISECONDS;
}

// The ids of `fixes` (the latest fix of each device heard, each with its `device` and `time`), most recent first.
export function devicesByRecency(fixes) {
  return [...fixes].sort((a, b) => (b.time - a.time) || (a.device < b.device ? -1 : a.device > b.device ? 1 : 0))
    .map((fix) => fix.device);
}

// A survey learned from that passes near too few of the nodes: a sentence asking for more (empty otherwise).
function shortOf(coverage) {
  if (!coverage || !coverage.learned || !(coverage.nodes > 0)) return "";
  if (coverage.coveredNodes >= coverage.minimumShare * coverage.nodes - 1e-9) return "";
  return " It passes within " + coverage.radiusMeters.toFixed(1) + " m of only " + coverage.coveredNodes + " of "
    + coverage.nodes + " nodes: a map is a guess where the survey did not go, walk near the rest.";
}

// What the survey bought, in a sentence, from the venue's `state` (none, learning, learned, failed) and `validation`
// ({estimator, validatedMedianMeters?, withoutSurveyMedianMeters?, coverage?}; absent until learned).
export function boughtText(state, validation) {
  if (state === "learning") return "Learning the survey… the venue keeps positioning meanwhile.";
  if (state === "failed") return "The survey could not be learned (the server's log says why).";
  if (state !== "learned" || !validation) return "No survey learned yet.";
  const m = (v) => v.toFixed(2) + " m";
  const coverage = validation.coverage;
  if (coverage && !coverage.learned) {
    const needed = Math.ceil(coverage.minimumShare * coverage.nodes - 1e-9);
    return "Not used yet: the survey passes within " + coverage.radiusMeters.toFixed(1) + " m of " + coverage.coveredNodes
      + " of " + coverage.nodes + " nodes, and a map is a guess where the survey did not go. Walk near at least "
      + needed + " of them and it is learned; until then the venue locates as without a survey.";
  }
  const after = validation.validatedMedianMeters, before = validation.withoutSurveyMedianMeters;
  if (typeof after !== "number") {
    return "Learned (" + validation.estimator + "); too few walks to validate: walk more between marks." + shortOf(coverage);
  }
  let text = "Median error on the survey's walks: ";
  if (typeof before === "number") {
    const change = before > 0 ? Math.round((after - before) / before * 100) : 0;
    text += "without the survey " + m(before) + ", with it " + m(after) + " (" + (change <= 0 ? "" : "+") + change + "%)";
  } else {
    text += "with the survey " + m(after);
  }
  return text + ", cross-validated; answers from " + validation.estimator + "." + shortOf(coverage);
}
