// The label layout's rules with no DOM: boxes in pixels ({l, r, t, b}), where a room name may go inside its room,
// the eight places around a device marker, names on several lines, and names shortened with "…".

import { centroid, pointIn } from "./geometry.js";

export const PAD = 2;   // pixels kept free around each label's text
const overlaps = (a, b) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
export const free = (box, placed) => !placed.some((p) => overlaps(box, p));

// Candidate centres for a label inside a shape (pixels): its centroid, then points of a grid over the part of it
// on the map (width × height), nearest the centroid first.
export function anchors(shape, width, height) {
  if (!shape.polygon) return [[shape.cx, shape.cy]];
  const p = shape.polygon;
  const [cx, cy] = centroid(p);
  const xs = p.map((q) => q[0]), ys = p.map((q) => q[1]);
  const minX = Math.max(0, Math.min(...xs)), maxX = Math.min(width, Math.max(...xs));
  const minY = Math.max(0, Math.min(...ys)), maxY = Math.min(height, Math.max(...ys));
  const out = [[cx, cy], [(minX + maxX) / 2, (minY + maxY) / 2]];
  const grid = [];
  for (let i = 1; i < 6; i++) for (let j = 1; j < 6; j++) {
    const x = minX + (maxX - minX) * i / 6, y = minY + (maxY - minY) * j / 6;
    if (pointIn(p, x, y)) grid.push([x, y]);
  }
  // Nearest first; of as near ones, the one straight above or below the centre, then the upper one.
  const key = ([x, y]) => [Math.round(Math.hypot(x - cx, y - cy)), Math.round(Math.abs(x - cx)), y];
  grid.sort((a, b) => { const [p, q] = [key(a), key(b)]; return p[0] - q[0] || p[1] - q[1] || p[2] - q[2]; });
  return out.concat(grid.slice(0, 10));
}
// A name's words on `count` lines: the split that makes the longest line shortest (in letters), the earliest of
// equals; null when the name has fewer words than lines.
export function splitLines(name, count) {
  const words = name.trim().split(/\s+/).filter((word) => word);
  if (count < 1 || words.length < count) return null;
  let best = null;
  const split = (from, left, lines) => {
    if (left === 1) {
      const all = lines.concat([words.slice(from).join(" ")]);
      const longest = Math.max(...all.map((line) => Array.from(line).length));
      if (!best || longest < best.longest) best = { lines: all, longest };
      return;
    }
    for (let end = from + 1; end <= words.length - left + 1; end++)
      split(end, left - 1, lines.concat([words.slice(from, end).join(" ")]));
  };
  split(0, count, []);
  return best.lines;
}
export const shortened = (letters, n) => n >= letters.length ? letters.join("") : letters.slice(0, n).join("").trimEnd() + "…";

// Eight places around a marker of radius r, for a label w × h: right, left, the four corners, above, below.
export const DOT = 6;
export function around(w, h) {
  const r = DOT + 3, d = r * .7;
  return [[r, -h / 2], [-r - w, -h / 2], [d, -d - h], [d, d], [-d - w, -d - h], [-d - w, d], [-w / 2, -r - h], [-w / 2, r]];
}
