// Geometry with no DOM: the WGS84 conversion between venue metres and latitude and longitude (as the server's
// `GeoAnchor` converts, pinned by shared test vectors), polygons, boxes and the floor image's placement matrix.

// ---- The geographic anchor: the latitude and longitude of the local origin and the bearing of +y (FORMATS.md).
// A point (x, y) other than the origin is given by its own latitude and longitude; the origin's are found from it
// through the local tangent plane of the WGS84 ellipsoid, as the server converts.
const WGS84 = { a: 6378137, f: 1 / 298.257223563 };
export const rad = Math.PI / 180;
function ecef(lat, lon) {
  const e2 = WGS84.f * (2 - WGS84.f), s = Math.sin(lat * rad), c = Math.cos(lat * rad);
  const n = WGS84.a / Math.sqrt(1 - e2 * s * s);
  return [n * c * Math.cos(lon * rad), n * c * Math.sin(lon * rad), n * (1 - e2) * s];
}
// East and north metres of (lat, lon) from the origin (lat0, lon0), in the origin's tangent plane.
function eastNorth(lat0, lon0, lat, lon) {
  const [x0, y0, z0] = ecef(lat0, lon0), [x, y, z] = ecef(lat, lon);
  const [dx, dy, dz] = [x - x0, y - y0, z - z0];
  const sl = Math.sin(lon0 * rad), cl = Math.cos(lon0 * rad), sp = Math.sin(lat0 * rad), cp = Math.cos(lat0 * rad);
  return [-sl * dx + cl * dy, -sp * cl * dx - sp * sl * dy + cp * dz];
}
// The origin's latitude and longitude when the local point (x, y) lies at (lat, lon) and +y has `bearing`.
export function originFor(x, y, lat, lon, bearing) {
  const b = bearing * rad;
  const east = x * Math.cos(b) + y * Math.sin(b), north = -x * Math.sin(b) + y * Math.cos(b);
  const r = 6371008.8;
  let lat0 = lat - north / r / rad, lon0 = lon - east / (r * Math.cos(lat * rad)) / rad;
  for (let i = 0; i < 8; i++) {
    const [e, n] = eastNorth(lat0, lon0, lat, lon);
    lat0 -= (north - n) / r / rad;
    lon0 -= (east - e) / (r * Math.cos(lat0 * rad)) / rad;
  }
  return [Math.round(lat0 * 1e9) / 1e9, Math.round(lon0 * 1e9) / 1e9];
}
// The venue point [x, y] (metres) at (lat, lon) for the anchor {latitude, longitude, bearingDegrees}: what the server's
// `GeoAnchor.point(of:)` gives (the shared test vectors pin both, Server/Tests/map/geometry.test.mjs).
export function localPoint(anchor, lat, lon) {
  const [east, north] = eastNorth(anchor.latitude, anchor.longitude, lat, lon);
  const b = (anchor.bearingDegrees || 0) * rad;
  return [east * Math.cos(b) - north * Math.sin(b), east * Math.sin(b) + north * Math.cos(b)];
}

// The anchor {latitude, longitude, bearingDegrees} from two points (x, y, latitude, longitude each), or a problem.
export function anchorFromTwo(v) {
  const [east, north] = eastNorth(v.latitude1, v.longitude1, v.latitude2, v.longitude2);
  const [dx, dy] = [v.x2 - v.x1, v.y2 - v.y1];
  const plan = Math.hypot(dx, dy), earth = Math.hypot(east, north);
  if (plan < 0.5) return { problem: { field: "x2", message: "the two points are less than 0.5 m apart on the plan" } };
  if (earth < 0.5) return { problem: { field: "latitude2", message: "the two points are less than 0.5 m apart on the Earth" } };
  if (Math.abs(plan / earth - 1) > 0.1) {
    return { problem: { field: "latitude2", message: "the points are " + plan.toFixed(2) + " m apart on the plan but "
      + earth.toFixed(2) + " m on the Earth: check the coordinates, or the plan's scale" } };
  }
  // A local direction at angle θ (counter-clockwise from +x) points at θ − bearing from east on the Earth.
  let bearing = (Math.atan2(dy, dx) - Math.atan2(north, east)) / rad;
  bearing = ((bearing + 180) % 360 + 360) % 360 - 180;
  bearing = Math.round(bearing * 1e6) / 1e6;
  const [a1, o1] = originFor(v.x1, v.y1, v.latitude1, v.longitude1, bearing);
  const [a2, o2] = originFor(v.x2, v.y2, v.latitude2, v.longitude2, bearing);
  const round = (d) => Math.round(d * 1e9) / 1e9;
  return { anchor: { latitude: round((a1 + a2) / 2), longitude: round((o1 + o2) / 2), bearingDegrees: bearing }, plan, earth };
}

export function polygonArea(points) {
  let a = 0;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++)
    a += points[j][0] * points[i][1] - points[i][0] * points[j][1];
  return a / 2;
}
export function centroid(points) {
  let a = 0, cx = 0, cy = 0;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const cross = points[j][0] * points[i][1] - points[i][0] * points[j][1];
    a += cross; cx += (points[j][0] + points[i][0]) * cross; cy += (points[j][1] + points[i][1]) * cross;
  }
  if (Math.abs(a) < 1e-9) return points.reduce(([x, y], p) => [x + p[0] / points.length, y + p[1] / points.length], [0, 0]);
  return [cx / (3 * a), cy / (3 * a)];
}
export function pointIn(points, x, y) {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i], [xj, yj] = points[j];
    if ((yi > y) !== (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
// Whether the segment crosses the inside of the box (Liang–Barsky clipping).
export function segmentCrosses(box, [x1, y1], [x2, y2]) {
  let t0 = 0, t1 = 1;
  const dx = x2 - x1, dy = y2 - y1;
  for (const [p, q] of [[-dx, x1 - box.l], [dx, box.r - x1], [-dy, y1 - box.t], [dy, box.b - y1]]) {
    if (p === 0) { if (q <= 0) return false; continue; }
    const t = q / p;
    if (p < 0) { if (t > t1) return false; if (t > t0) t0 = t; }
    else { if (t < t0) return false; if (t < t1) t1 = t; }
  }
  return t1 - t0 > 1e-9;
}
// Whether the box lies inside the shape (in pixels: {polygon} or {cx, cy, r}).
export function boxInside(box, shape) {
  const corners = [[box.l, box.t], [box.r, box.t], [box.r, box.b], [box.l, box.b]];
  if (shape.polygon) {
    const p = shape.polygon;
    if (!corners.every(([x, y]) => pointIn(p, x, y))) return false;
    for (let i = 0, j = p.length - 1; i < p.length; j = i++) if (segmentCrosses(box, p[j], p[i])) return false;
    return true;
  }
  return corners.every(([x, y]) => Math.hypot(x - shape.cx, y - shape.cy) <= shape.r);
}

// The matrix (a, b, c, d, e, f) from image pixels (u, v) to the plan's drawing units (x, −y).
export function imageMatrix(p) {
  const [[u1, v1], [u2, v2]] = p.imagePoints;
  const s = p.distanceMeters / Math.hypot(u2 - u1, v2 - v1);
  const t = (p.rotationDegrees || 0) * Math.PI / 180;
  const [x0, y0] = p.at || [0, 0];
  const a = s * Math.cos(t), c = s * Math.sin(t), b = -s * Math.sin(t), d = s * Math.cos(t);
  return [a, b, c, d, x0 - a * u1 - c * v1, -y0 - b * u1 - d * v1];
}

// Metres rounded to 1 mm.
export const mm = (v) => Math.round(v * 1000) / 1000;
