// The map's geometry module under node --test: its WGS84 conversion pinned to the server's GeoAnchor by the shared
// test vectors (Tests/IndoorModelTests/Fixtures/geo-anchor-vectors.json, written from GeoAnchor and checked against
// it by GeoAnchorVectorTests), and its plane geometry.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  anchorFromTwo, boxInside, centroid, imageMatrix, localPoint, mm, originFor, pointIn, polygonArea, segmentCrosses,
} from "../../Sources/IndoorServer/Resources/geometry.js";

const file = JSON.parse(readFileSync(new URL("../../../Tests/IndoorModelTests/Fixtures/geo-anchor-vectors.json",
  import.meta.url), "utf8"));
const { vectors, toleranceDegrees, toleranceMetres } = file;
// Two longitudes apart in degrees, the short way across the antimeridian.
const longitudeApart = (a, b) => { const d = Math.abs(a - b) % 360; return Math.min(d, 360 - d); };

test("the shared vectors are there: a dozen and more, 1e-9° and 1 mm", () => {
  assert.ok(vectors.length >= 12, vectors.length + " vectors");
  assert.equal(toleranceDegrees, 1e-9);
  assert.equal(toleranceMetres, 0.001);
});

for (const v of vectors) {
  test("WGS84 to venue metres as GeoAnchor.point(of:): " + v.note, () => {
    const [x, y] = localPoint(v.anchor, v.latitude, v.longitude);
    assert.ok(Math.hypot(x - v.x, y - v.y) <= toleranceMetres,
      `(${x}, ${y}) is ${Math.hypot(x - v.x, y - v.y)} m from (${v.x}, ${v.y})`);
  });
  // originFor is the editor's inverse of GeoAnchor.coordinate(of:): the point (x, y) lies at (latitude, longitude),
  // so the origin is the anchor's (to 1e-9°, the step it rounds to).
  test("the origin from a point's latitude and longitude as GeoAnchor.coordinate(of:) puts it: " + v.note, () => {
    const [latitude, longitude] = originFor(v.x, v.y, v.latitude, v.longitude, v.anchor.bearingDegrees);
    assert.ok(Math.abs(latitude - v.anchor.latitude) <= toleranceDegrees, `latitude ${latitude}`);
    assert.ok(longitudeApart(longitude, v.anchor.longitude) <= toleranceDegrees, `longitude ${longitude}`);
  });
}

// The bearing is taken in the first point's tangent plane, not the origin's: over the 1 km between these points the
// meridians turn by about 0.003°, which moves the origin by a few centimetres.
test("the anchor by two points of the same vectors: the bearing and the origin back, to 0.01° and 10 cm", () => {
  const [a, b] = vectors.filter((v) => v.note.startsWith("bearing 20°"));
  const result = anchorFromTwo({ x1: a.x, y1: a.y, latitude1: a.latitude, longitude1: a.longitude,
                                 x2: b.x, y2: b.y, latitude2: b.latitude, longitude2: b.longitude });
  assert.ok(result.anchor, JSON.stringify(result.problem));
  assert.ok(Math.abs(result.anchor.bearingDegrees - 20) <= 0.01, `bearing ${result.anchor.bearingDegrees}`);
  assert.ok(Math.abs(result.anchor.latitude - a.anchor.latitude) <= 1e-6, `latitude ${result.anchor.latitude}`);
  assert.ok(Math.abs(result.anchor.longitude - a.anchor.longitude) <= 1e-6, `longitude ${result.anchor.longitude}`);
  assert.ok(Math.abs(result.plan - result.earth) < 0.001);
});

test("the anchor by two points refuses points too close, or whose distances disagree", () => {
  const [a] = vectors.filter((v) => v.note.startsWith("bearing 20°"));
  const near = anchorFromTwo({ x1: a.x, y1: a.y, latitude1: a.latitude, longitude1: a.longitude,
                               x2: a.x + 0.2, y2: a.y, latitude2: a.latitude, longitude2: a.longitude });
  assert.equal(near.problem.field, "x2");
  const scaled = anchorFromTwo({ x1: 0, y1: 0, latitude1: 52.52, longitude1: 13.4,
                                 x2: 200, y2: 0, latitude2: 52.52, longitude2: 13.4 + 100 / 67800 });
  assert.equal(scaled.problem.field, "latitude2");
});

test("polygon area (counter-clockwise positive), centroid and inside", () => {
  const square = [[0, 0], [4, 0], [4, 2], [0, 2]];
  assert.equal(polygonArea(square), 8);
  assert.equal(polygonArea([...square].reverse()), -8);
  assert.deepEqual(centroid(square), [2, 1]);
  assert.deepEqual(centroid([[1, 1], [1, 1], [1, 1]]), [1, 1]);   // no area: the mean of the points
  assert.ok(pointIn(square, 1, 1));
  assert.ok(!pointIn(square, 5, 1));
  const ell = [[0, 0], [4, 0], [4, 1], [1, 1], [1, 4], [0, 4]];
  assert.ok(pointIn(ell, 0.5, 3));
  assert.ok(!pointIn(ell, 3, 3));
});

test("a box inside a shape: a polygon's edge may not cross it; a circle holds its corners", () => {
  const ell = { polygon: [[0, 0], [40, 0], [40, 10], [10, 10], [10, 40], [0, 40]] };
  assert.ok(boxInside({ l: 1, r: 9, t: 1, b: 9 }, ell));
  assert.ok(!boxInside({ l: 5, r: 15, t: 5, b: 15 }, ell));
  assert.ok(segmentCrosses({ l: 0, r: 10, t: 0, b: 10 }, [-5, 5], [15, 5]));
  assert.ok(!segmentCrosses({ l: 0, r: 10, t: 0, b: 10 }, [-5, 15], [15, 15]));
  const circle = { cx: 0, cy: 0, r: 10 };
  assert.ok(boxInside({ l: -5, r: 5, t: -5, b: 5 }, circle));
  assert.ok(!boxInside({ l: -8, r: 8, t: -8, b: 8 }, circle));
});

test("the floor image's matrix puts its first point at `at` and scales the two points' distance", () => {
  const placement = { imagePoints: [[10, 20], [110, 20]], distanceMeters: 5, at: [3, 4], rotationDegrees: 90 };
  const [a, b, c, d, e, f] = imageMatrix(placement);
  const apply = ([u, v]) => [a * u + c * v + e, b * u + d * v + f];   // to (x, −y)
  const [x1, y1] = apply([10, 20]);
  assert.ok(Math.abs(x1 - 3) < 1e-12 && Math.abs(-y1 - 4) < 1e-12);
  const [x2, y2] = apply([110, 20]);
  assert.ok(Math.abs(Math.hypot(x2 - x1, y2 - y1) - 5) < 1e-12);
  // Turned 90° counter-clockwise: the image's +u points along the venue's +y.
  assert.ok(Math.abs(x2 - 3) < 1e-12 && Math.abs(-y2 - 9) < 1e-12);
});

test("metres to 1 mm", () => {
  assert.equal(mm(1.23456), 1.235);
  assert.equal(mm(-0.0004), -0);
});
