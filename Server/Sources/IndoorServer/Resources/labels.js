// ---- Label layout: every label is a box in pixels; a label is shown only where its box overlaps no other shown
// label's. Connection kinds first, then room names (smaller rooms first), each inside its own shape: whole on one
// line, else its words on two or three lines, else as much of it as fits with "…" (the room's tooltip names it),
// hidden when not even three letters fit; zoomed in, more names fit whole. Then device labels, each at the first
// free place of eight around its marker.

import { boxInside } from "./geometry.js";
import { DOT, PAD, anchors, around, free, shortened, splitLines } from "./layout.js";
import { onFloor, venue } from "./state.js";
import { el, map, project, size, view } from "./view.js";

export let placeNames = [];   // the room and connection labels: {text, name, shape, kind} (shape in metres)
// A new plan: no names to place yet, and no device label kept where it was.
export function forgetLabels() {
  placeNames = [];
  lastPlace.clear();
}
const measureContext = document.createElement("canvas").getContext("2d");
const fonts = new Map();      // label class -> {font, top, height}: the font and the text box's top and height
const widths = new Map();     // font + text -> width in pixels
function fontOf(text) {
  const kind = text.getAttribute("class").replace(" off", "");
  let font = fonts.get(kind);
  if (!font) {
    const style = getComputedStyle(text);
    const probe = el("text", { class: kind, x: 0, y: 0 }, text.parentNode);
    probe.textContent = "Hg";
    const box = probe.getBBox();
    probe.remove();
    font = { font: style.fontStyle + " " + style.fontWeight + " " + style.fontSize + " " + style.fontFamily,
             top: box.y, height: box.height || parseFloat(style.fontSize) * 1.2 };
    if (font.height > 0) fonts.set(kind, font);
  }
  return font;
}
function widthOf(font, text) {
  const key = font.font + "\n" + text;
  let width = widths.get(key);
  if (width === undefined) {
    if (widths.size > 5000) widths.clear();
    measureContext.font = font.font;
    width = measureContext.measureText(text).width;
    widths.set(key, width);
  }
  return width;
}

// Places one room or connection name inside its shape; returns its box or null (hidden).
function placeName(item, placed, width, height) {
  const { text } = item;
  const shape = item.shape.polygon ? { polygon: item.shape.polygon.map(([x, y]) => project(x, y)) }
    : (([cx, cy]) => ({ cx, cy, r: item.shape.radius * view.scale }))(project(item.shape.center[0], item.shape.center[1]));
  const xs = shape.polygon ? shape.polygon.map((q) => q[0]) : [shape.cx - shape.r, shape.cx + shape.r];
  const ys = shape.polygon ? shape.polygon.map((q) => q[1]) : [shape.cy - shape.r, shape.cy + shape.r];
  const font = fontOf(text);
  text.textContent = item.name;
  if (Math.max(...xs) < 0 || Math.min(...xs) > width || Math.max(...ys) < 0 || Math.min(...ys) > height
      || Math.max(...xs) - Math.min(...xs) < 12 || Math.max(...ys) - Math.min(...ys) < font.height) return null;
  const letters = Array.from(item.name);
  const least = item.whole ? letters.length : Math.min(letters.length, 3);
  // The name's layouts: on one line, or its words on two or three (item.whole: one line only).
  const layouts = [[item.name]];
  for (const count of item.whole ? [] : [2, 3]) {
    const lines = splitLines(item.name, count);
    if (lines) layouts.push(lines);
  }
  const boxAt = ([x, y], lines) => {
    const w = Math.max(...lines.map((line) => widthOf(font, line))), h = lines.length * font.height;
    return { l: x - w / 2 - PAD, r: x + w / 2 + PAD, t: y - h / 2, b: y + h / 2 };
  };
  // A name goes where it is wholly on screen: inside its shape and inside the map (and, asked, clear of nodes).
  const seen = (box) => box.l >= 0 && box.t >= 0 && box.r <= width && box.b <= height;
  const fits = (anchor, lines, clearOfNodes) => {
    const box = boxAt(anchor, lines);
    return seen(box) && boxInside(box, shape) && free(box, placed) && (!clearOfNodes || free(box, nodeMarks));
  };
  const candidates = anchors(shape, width, height);
  // The whole name on as few lines as fit, where it covers no node marker if there is such a place.
  for (const clearOfNodes of [true, false]) {
    for (const lines of layouts) {
      const anchor = candidates.find((a) => fits(a, lines, clearOfNodes));
      if (anchor) return show(boxAt(anchor, lines), lines);
    }
  }
  // Else the longest beginning of it that fits, its last line shortened with "…" (the fewest lines of the longest).
  let best = null;
  for (const lines of layouts) {
    const head = lines.slice(0, -1), last = Array.from(lines[lines.length - 1]);
    const before = head.reduce((n, line) => n + Array.from(line).length + 1, 0);
    const form = (n) => head.concat([shortened(last, n)]);
    const minimum = Math.max(1, least - before);
    if (minimum >= last.length) continue;
    for (const anchor of candidates) {
      if (!fits(anchor, form(minimum), false)) continue;
      // The longest form that fits at this anchor (a longer form's box holds a shorter one's: fitting is monotonic).
      let lo = minimum, hi = last.length - 1;
      while (lo < hi) { const mid = Math.ceil((lo + hi) / 2); if (fits(anchor, form(mid), false)) lo = mid; else hi = mid - 1; }
      if (!best || before + lo > best.shown) best = { shown: before + lo, anchor, lines: form(lo) };
    }
  }
  return best ? show(boxAt(best.anchor, best.lines), best.lines) : null;
  // The lines, each centred in `box`; each but the last keeps a trailing space, so the text reads as the name.
  function show(box, lines) {
    text.textContent = "";
    const middle = (box.l + box.r) / 2;
    if (lines.length === 1) {
      text.textContent = lines[0];
      text.setAttribute("x", (box.l + PAD).toFixed(1));
      text.setAttribute("y", (box.t - font.top).toFixed(1));
      return box;
    }
    lines.forEach((line, i) => {
      const span = el("tspan", { x: (middle - widthOf(font, line) / 2).toFixed(1),
                                 y: (box.t + i * font.height - font.top).toFixed(1) }, text);
      span.textContent = i < lines.length - 1 ? line + " " : line;
    });
    return box;
  }
}

let nodeMarks = [];   // the node markers' boxes in pixels, which room names keep clear of when they can
export function layoutLabels() {
  const [width, height] = size();
  // The zoom buttons sit over the map: no label goes under them.
  const buttons = document.getElementById("zoom").getBoundingClientRect(), area = map.getBoundingClientRect();
  const placed = [{ l: buttons.left - area.left - 4, r: buttons.right - area.left + 4,
                    t: buttons.top - area.top - 4, b: buttons.bottom - area.top + 4 }];
  nodeMarks = [];
  for (const n of venue.nodes || []) {
    if (!onFloor(n.floor)) continue;
    const [x, y] = project(n.x, n.y), r = Math.max(2, .35 * view.scale);
    nodeMarks.push({ l: x - r, r: x + r, t: y - r, b: y + r });
  }
  // Connection kinds, then rooms from the smallest (a big zone's name finds room around the small ones' in it).
  const order = placeNames.filter((p) => p.kind === "connection")
    .concat(placeNames.filter((p) => p.kind === "room").sort((a, b) => a.area - b.area));
  for (const item of order) {
    const box = placeName(item, placed, width, height);
    item.text.classList.toggle("off", !box);
    if (box) placed.push(box);
  }
  layoutDevices(placed, width, height);
}

const lastPlace = new Map();   // device id -> the index in `around` its label had, tried first next time

function layoutDevices(placed, width, height) {
  const layer = document.getElementById("devices");
  if (!layer) return;
  const groups = Array.from(layer.children).sort((a, b) => a.dataset.device < b.dataset.device ? -1 : 1);
  const marks = [];
  for (const g of groups) {
    const [x, y] = project(Number(g.dataset.x), Number(g.dataset.y));
    g._at = [x, y];
    marks.push({ l: x - DOT, r: x + DOT, t: y - DOT, b: y + DOT, device: g.dataset.device });
    const transform = "translate(" + x.toFixed(1) + "px, " + y.toFixed(1) + "px)";
    const circle = g._accuracy;
    circle.setAttribute("r", (Math.max(.3, Number(g.dataset.accuracy) || 1) * view.scale).toFixed(1));
    for (const mark of [g, circle]) {
      if (!mark.dataset.placed) {
        // A new marker appears where it is instead of gliding in from the corner.
        mark.style.transition = "none";
        mark.style.transform = transform;
        mark.getBoundingClientRect();
        mark.style.transition = "";
        mark.dataset.placed = "1";
      } else if (mark.style.transform !== transform) mark.style.transform = transform;
    }
  }
  const shown = [];   // {g, box, at, place, w}
  const hidden = [];
  for (const g of groups) {
    const text = g.querySelector("text");
    const [x, y] = g._at;
    const label = g.dataset.label;
    text.textContent = label;
    const font = fontOf(text);
    const w = widthOf(font, label), h = font.height;
    const places = around(w, h);
    const box = (i, wide) => {
      const [dx, dy] = i === undefined ? places[0] : around(wide, h)[i];
      return { l: x + dx - PAD, r: x + dx + wide + PAD, t: y + dy, b: y + dy + h };
    };
    const order = [...places.keys()];
    const last = lastPlace.get(g.dataset.device);
    if (last !== undefined) { order.splice(order.indexOf(last), 1); order.unshift(last); }
    let chosen = -1;
    if (x > -50 && x < width + 50 && y > -50 && y < height + 50) {
      // First where it covers no label, no other device's marker and no node; else no label and no other
      // device's marker; else no label.
      const others = marks.filter((m) => m.device !== g.dataset.device);
      const seen = (b) => b.l >= 0 && b.t >= 0 && b.r <= width && b.b <= height;
      for (const [avoid, onScreen] of [[others.concat(nodeMarks), true], [others, true], [[], true], [[], false]]) {
        chosen = order.find((i) => (!onScreen || seen(box(i, w))) && free(box(i, w), placed) && free(box(i, w), avoid)) ?? -1;
        if (chosen >= 0) break;
      }
    }
    const at = chosen < 0 ? 0 : chosen;
    const [dx, dy] = places[at];
    text.setAttribute("x", dx.toFixed(1));
    text.setAttribute("y", (dy - font.top).toFixed(1));
    text.classList.toggle("off", chosen < 0);
    if (chosen >= 0) {
      lastPlace.set(g.dataset.device, chosen);
      const b = box(chosen, w);
      placed.push(b);
      shown.push({ g, box: b, at: chosen, font, x, y, h, others: [] });
    } else hidden.push({ g, x, y });
  }
  // A hidden label counts at the nearest shown label within 60 px ("phone-2 · Lobby +3"), whose tooltip lists them.
  for (const { g, x, y } of hidden) {
    let near = null, distance = 60;
    for (const s of shown) { const d = Math.hypot(s.x - x, s.y - y); if (d < distance) { distance = d; near = s; } }
    if (near) near.others.push(g.dataset.device);
  }
  for (const s of shown) {
    const title = s.g.querySelector("title");
    title.textContent = s.g.dataset.title + (s.others.length ? "\nnear: " + s.others.join(", ") : "");
    if (!s.others.length) continue;
    const longer = s.g.dataset.label + " +" + s.others.length;
    const w = widthOf(s.font, longer);
    const [dx, dy] = around(w, s.h)[s.at];
    const box = { l: s.x + dx - PAD, r: s.x + dx + w + PAD, t: s.y + dy, b: s.y + dy + s.h };
    if (free(box, placed.filter((p) => p !== s.box))) {
      placed[placed.indexOf(s.box)] = box;
      const text = s.g.querySelector("text");
      text.textContent = longer;
      text.setAttribute("x", dx.toFixed(1));
    }
  }
  for (const { g } of hidden) g.querySelector("title").textContent = g.dataset.title;
}
