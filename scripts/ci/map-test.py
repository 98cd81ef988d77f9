#!/usr/bin/env python3
"""Real-browser test of the live map of `indoor serve`.

Starts `indoor serve --demo --port 0` (the binary given, a temporary database of its own), reads the printed map
address (it carries the read key), opens it in headless Chromium through chromium-driver (selenium), and waits,
bounded in time, until the floor plan has drawn (outline, nodes and zones in the SVG, the SVG on screen), the
demo's stairwell is drawn as a floor connection labelled with its kind, a device marker has moved between two
samples a few seconds apart (the live stream is read with the key in a header; the key leaves the address bar
once the page has it), each room someone is in shows how many ("2 · Room S1", as GET /v1/venues/{id}/occupancy
says), nodes marked from their health (online, or greyed out when silent or offline), a device's label shows its held room (the `room` the server sends with the
device list and live fixes), and the status line says the stream is live and where the demo venue's positioning
stands with its survey (learning it in the background, or tracking over its radio map).

Then the labels: no two labels on screen overlap (the boxes of the SVG text elements, room names, floor-connection
labels and device labels), each room name shown lies inside its room's box and does not repeat the chosen floor, a
name shortened (…) or hidden is in its room's tooltip, and labels keep their size; zoom by the + button, the wheel
(about the pointer) and the + / − keys, pan by dragging and by the arrow keys, 0 and the fit button fit the plan
again, and the devices keep moving while zoomed in. Last it puts a venue of its own with the demo's admin key
(twelve small rooms with long names close together, and a corridor) and posts sightings with the ingest key that
put twelve devices close together, opens it, and checks its labels the same way, fitted and zoomed in. Stops the
server by its pid at the end.

Between the two, the layout from a phone to a wall screen: at 390 × 844 (a phone, emulated) and 1400 × 900 the plan
takes at least 80% of the width (a screenshot of each is saved); at 390 px every header button is wholly on screen and
not covered, the activity list is a drawer the header's Activity button opens and its × button and Escape close, the
labels still never overlap, and touch works the plan: one finger drags it, two fingers pinch it bigger.

    scripts/ci/map-test.py [--binary Server/.build/debug/indoor] [--timeout 90] [--screenshot FILE]
                           [--screenshots DIR]

Exit status 0 on success; 1 with a message saying what did not happen on failure; 2 when a tool is missing.
"""

import argparse
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse


def fail(message, code=1):
    print(f"map-test: FAILED: {message}", file=sys.stderr)
    sys.exit(code)


def start_server(binary, log_folder):
    """Starts the demo server; returns (process, map URL, keys by kind) once it has printed its address."""
    errors = open(os.path.join(log_folder, "server.err"), "w")
    process = subprocess.Popen(
        [binary, "serve", "--demo", "--port", "0", "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=errors, text=True)
    found = {}
    keys = {}

    def read():
        for line in process.stdout:
            key = re.search(r"(admin|ingest|read) key: (\S+)", line)
            if key:
                keys[key.group(1)] = key.group(2)
            match = re.search(r"map: (http://\S+)", line)
            if match:
                found["url"] = match.group(1)
                break
        for _ in process.stdout:  # keep draining so the server never blocks on a full pipe
            pass

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + 60
    while "url" not in found and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.1)
    if "url" not in found:
        stop_server(process)
        with open(os.path.join(log_folder, "server.err")) as log:
            tail = log.read()[-2000:]
        what = "within 60 s" if process.returncode is None else f"and exited with status {process.returncode}"
        fail(f"the server printed no map address {what}; its stderr:\n{tail}")
    return process, found["url"], keys


def stop_server(process):
    """SIGTERM to the server we started (by its pid), SIGKILL after 15 s."""
    if process.poll() is not None:
        return
    os.kill(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        fail("the server did not stop within 15 s of SIGTERM")


def browser(profile):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,800", f"--user-data-dir={profile}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if chromium:
        options.binary_location = chromium
    driver_path = shutil.which("chromedriver")
    if not driver_path:
        fail("chromedriver is not installed (apt-get install chromium-driver)", 2)
    return webdriver.Chrome(service=Service(executable_path=driver_path), options=options)


PLAN = """
const map = document.getElementById("map");
if (!map) return null;
const box = map.getBoundingClientRect();
return {
  outline: map.querySelectorAll(".outline").length,
  nodes: map.querySelectorAll(".node").length,
  zones: map.querySelectorAll(".zone").length,
  connections: map.querySelectorAll(".connection").length,
  connectionLabels: Array.from(map.querySelectorAll(".connection-label"), (t) => t.textContent),
  width: box.width, height: box.height,
  status: (document.getElementById("status") || {}).textContent || "",
};
"""

DEVICES = """
const out = {};
for (const g of document.querySelectorAll("#devices g.device"))
  out[g.dataset.device] = [Number(g.dataset.x), Number(g.dataset.y)];
return out;
"""

NODES = """
const out = {};
for (const c of document.querySelectorAll("circle.node"))
  out[c.dataset.node] = { status: c.dataset.status || "", quiet: c.classList.contains("quiet") };
return out;
"""

ROOMS = """
const out = {};
for (const g of document.querySelectorAll("#devices g.device"))
  out[g.dataset.device] = { room: g.dataset.room || "", label: (g.querySelector("text") || {}).textContent || "" };
return out;
"""

# Every label the map shows (SVG text on screen, not hidden, inside the map's box), each room shape's box with its
# tooltip, each room label's text, and the box of the floor outline (how big the plan is drawn).
LABELS = """
const map = document.getElementById("map");
const shown = (t) => {
  if (!t.textContent.trim()) return false;
  for (let e = t; e && e !== map; e = e.parentNode) {
    const s = getComputedStyle(e);
    if (s.display === "none" || s.visibility === "hidden" || Number(s.opacity) === 0) return false;
  }
  const r = t.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
};
const box = (r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
const area = map.getBoundingClientRect();
const labels = [];
for (const t of map.querySelectorAll("text")) {
  if (!shown(t)) continue;
  const r = t.getBoundingClientRect();
  if (r.right < area.left || r.left > area.right || r.bottom < area.top || r.top > area.bottom) continue;
  const g = t.closest("g.device");
  const kind = g ? "device" : t.dataset.zone ? "room" : t.dataset.connection ? "connection" : "other";
  labels.push({ text: t.textContent, kind, lines: t.querySelectorAll("tspan").length || 1,
                zone: t.dataset.zone || null, device: g ? g.dataset.device : null, ...box(r) });
}
const zones = {};
for (const s of map.querySelectorAll(".zone[data-zone]")) {
  const r = s.getBoundingClientRect();
  zones[s.dataset.zone] = { ...box(r), title: (s.querySelector("title") || {}).textContent || "" };
}
const names = {};
for (const t of map.querySelectorAll("text[data-zone]"))
  names[t.dataset.zone] = { text: t.textContent, shown: shown(t), lines: t.querySelectorAll("tspan").length || 1 };
const devices = {};
for (const g of map.querySelectorAll("g.device")) {
  const t = g.querySelector("text");
  devices[g.dataset.device] = { shown: !!t && shown(t), title: (g.querySelector("title") || {}).textContent || "" };
}
const outline = map.querySelector(".outline");
return { labels, zones, names, devices, map: box(area),
         outline: outline ? box(outline.getBoundingClientRect()) : null };
"""

# Moving markers glide to each new fix (a CSS transition); the label checks measure where things are, so the test
# turns the glide off (the map lays its labels out for where the markers go). A constructed style sheet, not a
# <style> element, which the server's Content-Security-Policy refuses as inline style.
NO_GLIDE = """
if (!window.testNoGlide) {
  window.testNoGlide = new CSSStyleSheet();
  window.testNoGlide.replaceSync("#map *, #map { transition: none !important; }");
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, window.testNoGlide];
}
"""


# The layout: the viewport, the plan's box, the side panel's box and state, and each header button's box, whether it
# is displayed and whether it is the element at its own centre (not covered, not cut off).
LAYOUT = """
const box = (e) => { const r = e.getBoundingClientRect();
  return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height }; };
const side = document.getElementById("side");
const buttons = Array.from(document.querySelectorAll("header button"), (b) => {
  const r = b.getBoundingClientRect();
  const at = r.width && r.height ? document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2) : null;
  return { id: b.id, text: b.innerText.trim().replace(/\\s+/g, " "), displayed: r.width > 0 && r.height > 0,
           hit: !!at && (at === b || b.contains(at)), ...box(b),
           expanded: b.getAttribute("aria-expanded") };
});
const feed = document.getElementById("feed");
return { width: window.innerWidth, height: window.innerHeight, map: box(document.getElementById("map")),
         side: { ...box(side), visibility: getComputedStyle(side).visibility,
                 position: getComputedStyle(side).position },
         feed: box(feed), focus: document.activeElement ? document.activeElement.id : "",
         buttons };
"""


def viewport(driver, width, height, mobile):
    """Emulates a viewport of width × height CSS pixels (a phone's when `mobile`), then lets the map fit again."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    time.sleep(0.8)


def touch(driver, kind, points):
    """One touch event at client `points` [(x, y), …] (none for the end): the browser makes pointer events of it."""
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})


def side_closed(layout):
    side = layout["side"]
    return side["visibility"] == "hidden" or side["left"] >= layout["width"] - 1


def check_layout(driver, screenshot, screenshots):
    """At 390 × 844 (a phone) and 1400 × 900 the plan takes at least 80% of the width; at the phone's width every
    header button is on screen and uncovered, the activity drawer opens and closes, the labels do not overlap, and
    touch drags and pinches the plan. Saves a screenshot of each (and of the open drawer) in `screenshots`."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    def plan_width(what, layout):
        share = layout["map"]["width"] / layout["width"]
        if share < 0.8:
            problem(driver, screenshot)
            fail(f"{what}: the plan is {layout['map']['width']:.0f} px wide, {share:.0%} of the "
                 f"{layout['width']} px window (at least 80% wanted)")
        return share

    def outline():
        return driver.execute_script(LABELS)["outline"]

    try:
        viewport(driver, 390, 844, True)
        driver.find_element(By.ID, "zoom-fit").click()
        settle(driver)
        layout = driver.execute_script(LAYOUT)
        if layout["width"] != 390:
            fail(f"the emulated phone is {layout['width']} px wide, not 390")
        share = plan_width("390 × 844", layout)
        driver.save_screenshot(os.path.join(screenshots, "map-390x844.png"))
        shown = [b for b in layout["buttons"] if b["displayed"]]
        for b in shown:
            if b["left"] < 0 or b["top"] < 0 or b["right"] > layout["width"] + 0.5 \
                    or b["bottom"] > layout["height"] + 0.5 or not b["hit"]:
                problem(driver, screenshot)
                fail(f"390 × 844: the header button '{b['text']}' (#{b['id']}) is cut off or covered: "
                     f"({b['left']:.0f}, {b['top']:.0f})–({b['right']:.0f}, {b['bottom']:.0f}), "
                     f"the element at its centre is {'it' if b['hit'] else 'another'}")
        if not {"edit", "side-open"} <= {b["id"] for b in shown}:
            problem(driver, screenshot)
            fail(f"390 × 844: the header shows the buttons {[b['text'] for b in shown]}; 'Edit venue' and "
                 f"'Activity' wanted")
        if not side_closed(layout):
            problem(driver, screenshot)
            fail(f"390 × 844: the activity drawer is open before it is asked for: {layout['side']}")
        print(f"map-test: 390 × 844: the plan is {layout['map']['width']:.0f} px wide ({share:.0%}), header buttons "
              f"{', '.join(repr(b['text']) for b in shown)} wholly on screen, the side panel a closed drawer")
        check_labels(driver, screenshot, "390 × 844")

        # The drawer: the header's button opens it, × closes it; opened again, Escape closes it.
        for close in ("the × button", "Escape"):
            driver.find_element(By.ID, "side-open").click()
            time.sleep(0.5)
            layout = driver.execute_script(LAYOUT)
            side, feed = layout["side"], layout["feed"]
            opener = next(b for b in layout["buttons"] if b["id"] == "side-open")
            if side_closed(layout) or side["left"] < -0.5 or side["right"] > layout["width"] + 0.5 \
                    or feed["width"] <= 0 or opener["expanded"] != "true":
                problem(driver, screenshot)
                fail(f"390 × 844: the Activity button did not open the drawer on screen: {side}, "
                     f"the list {feed}, aria-expanded {opener['expanded']}")
            if close == "the × button":
                driver.save_screenshot(os.path.join(screenshots, "map-390x844-activity.png"))
                driver.find_element(By.ID, "side-close").click()
            else:
                ActionChains(driver).send_keys(Keys.ESCAPE).perform()
            time.sleep(0.5)
            layout = driver.execute_script(LAYOUT)
            if not side_closed(layout):
                problem(driver, screenshot)
                fail(f"390 × 844: {close} did not close the activity drawer: {layout['side']}")
        print(f"map-test: 390 × 844: the Activity button opens the drawer ({side['width']:.0f} px wide, the list in "
              f"it); its × button and Escape close it")

        # Touch: one finger drags the plan, two fingers pinch it bigger about their middle.
        rect = layout["map"]
        cx, cy = (rect["left"] + rect["right"]) / 2, (rect["top"] + rect["bottom"]) / 2
        before = outline()
        touch(driver, "touchStart", [(cx, cy)])
        for step in range(1, 6):
            touch(driver, "touchMove", [(cx + 10 * step, cy + 6 * step)])
        touch(driver, "touchEnd", [])
        settle(driver)
        after = outline()
        dx, dy = after["left"] - before["left"], after["top"] - before["top"]
        if abs(dx - 50) > 4 or abs(dy - 30) > 4:
            problem(driver, screenshot)
            fail(f"390 × 844: a one-finger drag by (50, 30) px moved the plan by ({dx:.0f}, {dy:.0f}) px")
        before = outline()
        touch(driver, "touchStart", [(cx - 30, cy), (cx + 30, cy)])
        for step in range(1, 7):
            touch(driver, "touchMove", [(cx - 30 - 10 * step, cy), (cx + 30 + 10 * step, cy)])
        touch(driver, "touchEnd", [])
        settle(driver)
        after = outline()
        grown = (after["right"] - after["left"]) / (before["right"] - before["left"])
        if grown < 1.8:
            problem(driver, screenshot)
            fail(f"390 × 844: a pinch from 60 to 180 px apart made the plan {grown:.2f} times as wide (3 wanted)")
        print(f"map-test: 390 × 844: touch: a drag by (50, 30) px moved the plan by ({dx:.0f}, {dy:.0f}) px, a pinch "
              f"from 60 to 180 px apart made it {grown:.2f} times as wide")
        driver.find_element(By.ID, "zoom-fit").click()

        viewport(driver, 1400, 900, False)
        settle(driver)
        layout = driver.execute_script(LAYOUT)
        share = plan_width("1400 × 900", layout)
        side = layout["side"]
        if side_closed(layout) or side["position"] == "fixed" or side["left"] < layout["map"]["right"]:
            problem(driver, screenshot)
            fail(f"1400 × 900: the side panel is not beside the plan: {layout['side']}, the plan {layout['map']}")
        driver.save_screenshot(os.path.join(screenshots, "map-1400x900.png"))
        print(f"map-test: 1400 × 900: the plan is {layout['map']['width']:.0f} px wide ({share:.0%}), the side panel "
              f"beside it ({layout['side']['width']:.0f} px)")
        check_labels(driver, screenshot, "1400 × 900")
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        time.sleep(0.5)
    print(f"map-test: screenshots in {screenshots}")


def run(driver, url, keys, timeout, screenshot, screenshots):
    deadline = time.monotonic() + timeout
    driver.set_page_load_timeout(max(timeout, 30))
    driver.get(url)
    # The page keeps the key in local storage and takes it out of the address bar (history, bookmarks, links).
    shown = driver.current_url
    if "key=" in shown:
        problem(driver, screenshot)
        fail(f"the address bar still carries the key after loading: {re.sub(r'key=[^&]+', 'key=…', shown)}")
    plan = None
    while time.monotonic() < deadline:
        plan = driver.execute_script(PLAN)
        if plan and plan["nodes"] > 0 and plan["zones"] > 0 and plan["outline"] > 0 and plan["connections"] > 0 \
                and "stairs" in plan["connectionLabels"] and plan["width"] > 100 and plan["height"] > 100:
            break
        time.sleep(0.25)
    else:
        problem(driver, screenshot)
        fail(f"the floor plan (with the demo's stairs) did not draw within {timeout} s: {plan}")
    print(f"map-test: floor plan drawn: {plan['outline']} outline, {plan['nodes']} nodes, {plan['zones']} zones, "
          f"{plan['connections']} connections ({', '.join(plan['connectionLabels'])}), "
          f"SVG {plan['width']:.0f}x{plan['height']:.0f} px, status '{plan['status']}'")

    first = {}
    while time.monotonic() < deadline and not first:
        first = driver.execute_script(DEVICES)
        if not first:
            time.sleep(0.25)
    if not first:
        problem(driver, screenshot)
        fail(f"no device marker appeared within {timeout} s")
    print(f"map-test: {len(first)} device markers")
    while time.monotonic() < deadline:
        time.sleep(3)
        second = driver.execute_script(DEVICES)
        moved = [d for d, p in second.items() if d in first and p != first[d]]
        if moved:
            device = moved[0]
            print(f"map-test: device '{device}' moved from {first[device]} to {second[device]}")
            break
        first = {**first, **{d: p for d, p in second.items() if d not in first}}
    else:
        problem(driver, screenshot)
        fail(f"no device marker moved within {timeout} s")

    rooms = {}
    while time.monotonic() < deadline:
        rooms = driver.execute_script(ROOMS)
        shown = [d for d, r in rooms.items() if r["room"] and r["room"] in r["label"]]
        if shown:
            device = shown[0]
            print(f"map-test: device '{device}' shows its room: '{rooms[device]['label']}'")
            break
        time.sleep(0.5)
    else:
        problem(driver, screenshot)
        fail(f"no device label showed a room within {timeout} s: {rooms}")

    nodes = {}
    while time.monotonic() < deadline:
        nodes = driver.execute_script(NODES)
        online = [n for n, h in nodes.items() if h["status"] == "online"]
        if online and all(h["quiet"] == (h["status"] != "online") for h in nodes.values() if h["status"]):
            quiet = sorted(n for n, h in nodes.items() if h["quiet"])
            print(f"map-test: {len(online)} nodes online, greyed out: {', '.join(quiet) or 'none'}")
            break
        time.sleep(0.5)
    else:
        problem(driver, screenshot)
        fail(f"no node was marked online from GET /v1/venues/{{id}}/nodes within {timeout} s: {nodes}")

    status = ""
    while time.monotonic() < deadline:
        status = driver.execute_script(PLAN)["status"]
        if status.startswith("live ·") and "survey" in status:
            print(f"map-test: status '{status}'")
            break
        time.sleep(0.5)
    else:
        problem(driver, screenshot)
        fail(f"the status line did not say the stream is live with the demo survey's state within {timeout} s: "
             f"'{status}'")

    check_occupancy(driver, url, keys, screenshot, deadline)

    driver.execute_script(NO_GLIDE)
    settle(driver)
    check_labels(driver, screenshot, "demo venue")
    if screenshot:
        driver.save_screenshot(screenshot)
    check_zoom_pan(driver, screenshot, deadline)
    check_layout(driver, screenshot, screenshots)
    check_crowded(driver, url, keys, screenshot, deadline)
    check_protections(driver, url, screenshot)


def overlapping(labels, slack=0.5):
    """Pairs of labels whose boxes overlap by more than `slack` pixels both ways."""
    pairs = []
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            if min(a["right"], b["right"]) - max(a["left"], b["left"]) > slack \
                    and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > slack:
                pairs.append((a, b))
    return pairs


def describe(label):
    return f"{label['kind']} '{label['text']}' at ({label['left']:.0f}, {label['top']:.0f})–" \
           f"({label['right']:.0f}, {label['bottom']:.0f})"


def check_labels(driver, screenshot, what, floor_word=True):
    """The labels on screen: none overlaps another, each room name lies inside its room's box (when shown) and the
    room is named in its tooltip (when its name is shortened or hidden), no room name repeats the chosen floor, and
    the labels are of a readable size. Returns the LABELS snapshot."""
    snap = driver.execute_script(LABELS)
    labels = snap["labels"]
    pairs = overlapping(labels)
    if pairs:
        problem(driver, screenshot)
        shown = "; ".join(f"{describe(a)} and {describe(b)}" for a, b in pairs[:6])
        fail(f"{what}: {len(pairs)} pairs of labels overlap, among them: {shown}")
    rooms = [label for label in labels if label["kind"] == "room"]
    if snap["zones"] and not snap["names"]:
        problem(driver, screenshot)
        fail(f"{what}: the rooms' names are not marked with their zone (text[data-zone])")
    for label in rooms:
        room = snap["zones"].get(label["zone"])
        if room and (label["left"] < room["left"] - 1 or label["right"] > room["right"] + 1
                     or label["top"] < room["top"] - 1 or label["bottom"] > room["bottom"] + 1):
            problem(driver, screenshot)
            fail(f"{what}: the name {describe(label)} runs out of its room's box "
                 f"({room['left']:.0f}, {room['top']:.0f})–({room['right']:.0f}, {room['bottom']:.0f})")
    for zone, name in snap["names"].items():
        title = snap["zones"].get(zone, {}).get("title", "")
        if (not name["shown"] or name["text"].endswith("…")) and not title.startswith(name["text"].rstrip("…")):
            problem(driver, screenshot)
            fail(f"{what}: room '{zone}' shows '{name['text']}' (shown: {name['shown']}) but its tooltip is '{title}'")
        if floor_word and "(floor" in name["text"]:
            problem(driver, screenshot)
            fail(f"{what}: room name '{name['text']}' repeats the floor chosen")
    heights = [(label["bottom"] - label["top"]) / label["lines"] for label in labels]
    if heights and (min(heights) < 9 or max(heights) > 40):
        problem(driver, screenshot)
        fail(f"{what}: label heights from {min(heights):.1f} to {max(heights):.1f} px (readable: 9 to 40 px)")
    devices = snap["devices"]
    hidden = sorted(d for d, v in devices.items() if not v["shown"])
    print(f"map-test: {what}: {len(labels)} labels on screen, none overlapping; "
          f"{sum(1 for n in snap['names'].values() if n['shown'])} of {len(snap['names'])} room names shown "
          f"({sum(1 for n in snap['names'].values() if n['shown'] and n['text'].endswith('…'))} shortened, "
          f"{sum(1 for n in snap['names'].values() if n['shown'] and n['lines'] > 1)} on several lines), inside "
          f"their rooms; {len(devices) - len(hidden)} of {len(devices)} device labels shown")
    return snap


def pointer_away(driver):
    """Moves the pointer off the map (a hovered marker shows its hidden label on purpose)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    ActionChains(driver).move_to_element(driver.find_element(By.TAG_NAME, "header")).perform()


def settle(driver, seconds=0.4):
    time.sleep(seconds)
    pointer_away(driver)
    time.sleep(0.1)


def check_zoom_pan(driver, screenshot, deadline):
    """Zoom by button, wheel (about the pointer) and keys, pan by dragging and by the arrow keys, and 0 back to the
    fitted view: the plan changes size and place, the labels keep their size and never overlap, and the devices
    go on moving while zoomed in."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.actions.wheel_input import ScrollOrigin

    def outline():
        return driver.execute_script(LABELS)["outline"]

    def width(box):
        return box["right"] - box["left"]

    def heights():
        return sorted({round(label["bottom"] - label["top"]) for label in driver.execute_script(LABELS)["labels"]})

    fitted, fitted_heights = outline(), heights()
    for control in ("zoom-in", "zoom-out", "zoom-fit"):
        if not driver.find_elements(By.ID, control):
            problem(driver, screenshot)
            fail(f"the map has no on-screen button #{control}")
    driver.find_element(By.ID, "zoom-in").click()
    settle(driver)
    zoomed = outline()
    if width(zoomed) < 1.2 * width(fitted):
        problem(driver, screenshot)
        fail(f"the + button did not zoom in: the plan was {width(fitted):.0f} px wide, then {width(zoomed):.0f} px")
    if heights() != fitted_heights and max(heights()) > max(fitted_heights) + 1:
        problem(driver, screenshot)
        fail(f"the labels grew with the zoom: heights {fitted_heights} px, then {heights()} px")
    check_labels(driver, screenshot, "zoomed in (+ button)")
    print(f"map-test: + button: the plan {width(fitted):.0f} → {width(zoomed):.0f} px wide, "
          f"label heights {fitted_heights} → {heights()} px")

    # The devices go on moving while zoomed in.
    first = driver.execute_script(DEVICES)
    moved = None
    while time.monotonic() < deadline and not moved:
        time.sleep(1)
        second = driver.execute_script(DEVICES)
        moved = next((d for d, p in second.items() if d in first and p != first[d]), None)
    if not moved:
        problem(driver, screenshot)
        fail("no device marker moved while the map was zoomed in")
    print(f"map-test: device '{moved}' moved while zoomed in")

    # The wheel zooms about the pointer: the room under the pointer stays under it (a room whose middle is on the
    # map, the nearest the map's middle; its box is measured whole even where the map cuts it off).
    snap = driver.execute_script(LABELS)
    area = snap["map"]
    mx, my = (area["left"] + area["right"]) / 2, (area["top"] + area["bottom"]) / 2

    def middle(b):
        return (b["left"] + b["right"]) / 2, (b["top"] + b["bottom"]) / 2

    inside = sorted(((z, b) for z, b in snap["zones"].items()
                     if area["left"] + 20 < middle(b)[0] < area["right"] - 20
                     and area["top"] + 20 < middle(b)[1] < area["bottom"] - 20),
                    key=lambda item: math.hypot(middle(item[1])[0] - mx, middle(item[1])[1] - my))
    if not inside:
        problem(driver, screenshot)
        fail("no room has its middle on screen after zooming in once")
    zone, room = inside[0]
    cx, cy = (room["left"] + room["right"]) / 2, (room["top"] + room["bottom"]) / 2
    element = driver.find_element(By.ID, "map")
    rect = element.rect
    ox = int(cx - (rect["x"] + rect["width"] / 2))
    oy = int(cy - (rect["y"] + rect["height"] / 2))
    before = outline()
    ActionChains(driver).scroll_from_origin(ScrollOrigin.from_element(element, ox, oy), 0, -300).perform()
    settle(driver)
    after = driver.execute_script(LABELS)
    room2 = after["zones"][zone]
    cx2, cy2 = (room2["left"] + room2["right"]) / 2, (room2["top"] + room2["bottom"]) / 2
    if width(after["outline"]) < 1.1 * width(before):
        problem(driver, screenshot)
        fail(f"the wheel did not zoom in: {width(before):.0f} px, then {width(after['outline']):.0f} px")
    if abs(cx2 - cx) > 4 or abs(cy2 - cy) > 4:
        problem(driver, screenshot)
        fail(f"the wheel did not zoom about the pointer: room '{zone}' was centred at ({cx:.0f}, {cy:.0f}), "
             f"then at ({cx2:.0f}, {cy2:.0f})")
    print(f"map-test: wheel: {width(before):.0f} → {width(after['outline']):.0f} px about the pointer "
          f"(room '{zone}' stayed at ({cx:.0f}, {cy:.0f}))")
    check_labels(driver, screenshot, "zoomed in (wheel)")

    # Dragging pans.
    before = outline()
    ActionChains(driver).move_to_element_with_offset(element, 0, 0).click_and_hold() \
        .move_by_offset(40, 20).move_by_offset(80, 40).release().perform()
    settle(driver)
    after = outline()
    dx, dy = after["left"] - before["left"], after["top"] - before["top"]
    if abs(dx - 120) > 4 or abs(dy - 60) > 4:
        problem(driver, screenshot)
        fail(f"dragging by (120, 60) px moved the plan by ({dx:.0f}, {dy:.0f}) px")
    print(f"map-test: drag by (120, 60) px moved the plan by ({dx:.0f}, {dy:.0f}) px")
    check_labels(driver, screenshot, "panned")

    # Keys: 0 fits again, + and − zoom, the arrows pan (the map has the focus).
    driver.execute_script("document.getElementById('map').focus()")
    ActionChains(driver).send_keys("0").perform()
    settle(driver)
    again = outline()
    if abs(width(again) - width(fitted)) > 2 or abs(again["left"] - fitted["left"]) > 2:
        problem(driver, screenshot)
        fail(f"the 0 key did not fit the plan again: {again} (fitted: {fitted})")
    ActionChains(driver).send_keys("+").perform()
    settle(driver)
    plus = outline()
    ActionChains(driver).send_keys("-").perform()
    settle(driver)
    minus = outline()
    from selenium.webdriver.common.keys import Keys
    ActionChains(driver).send_keys(Keys.ARROW_LEFT).perform()
    settle(driver)
    left = outline()
    if not (width(plus) > 1.2 * width(again) and abs(width(minus) - width(again)) < 2
            and left["left"] != minus["left"]):
        problem(driver, screenshot)
        fail(f"keys: fitted {width(again):.0f} px wide, + → {width(plus):.0f}, − → {width(minus):.0f}, "
             f"← moved the plan from x {minus['left']:.0f} to {left['left']:.0f}")
    print(f"map-test: keys: 0 fits ({width(again):.0f} px), + → {width(plus):.0f}, − → {width(minus):.0f}, "
          f"← pans by {left['left'] - minus['left']:.0f} px")
    driver.find_element(By.ID, "zoom-fit").click()
    settle(driver)
    if abs(width(outline()) - width(fitted)) > 2:
        problem(driver, screenshot)
        fail("the fit button did not fit the plan again")
    check_labels(driver, screenshot, "fitted again")


def crowded_venue():
    """One floor, twelve small rooms close together with long names, a corridor zone, five nodes."""
    names = ["Conference room Kilimanjaro", "Quiet room for phone calls", "Project war room Atlantis",
             "Board room of the executive floor", "Wellness and first aid room", "Printer and stationery corner",
             "Meeting room Aurora borealis", "Training room for new starters", "Storage for event furniture",
             "Server and network cabinet", "Interview room Blue Lagoon", "Kitchenette and coffee machine"]
    zones = []
    for index, name in enumerate(names):
        column, row = index % 6, index // 6
        x0, y0 = 2.5 * column, 0.0 if row == 0 else 5.0
        zones.append({"id": f"room-{index + 1}", "name": f"{name} (floor 0)", "fences": [
            {"polygon": [[x0, y0], [x0 + 2.5, y0], [x0 + 2.5, y0 + 3], [x0, y0 + 3]], "floor": 0}]})
    zones.append({"id": "corridor", "name": "Main corridor between all the meeting rooms (floor 0)", "fences": [
        {"polygon": [[0, 3], [15, 3], [15, 5], [0, 5]], "floor": 0}]})
    nodes = [{"id": f"n{i}", "x": x, "y": y, "z": 2.5, "floor": 0}
             for i, (x, y) in enumerate([(0, 0), (15, 0), (0, 8), (15, 8), (7.5, 4)])]
    return {"id": "crowded", "name": "Crowded test floor",
            "floors": [{"level": 0, "name": "Ground floor", "outline": [[0, 0], [15, 0], [15, 8], [0, 8]]}],
            "nodes": nodes, "zones": zones}


def request(base, key, method, path, body):
    import json
    import urllib.request
    call = urllib.request.Request(base + path, data=json.dumps(body).encode(), method=method, headers={
        "Authorization": "Bearer " + key, "Content-Type": "application/json"})
    with urllib.request.urlopen(call, timeout=30) as answer:
        return json.loads(answer.read() or b"{}")


# Each room's count as the map shows it: the zone shape's data-count and class, and its label's text.
OCCUPANCY = """
const out = {};
for (const s of document.querySelectorAll("#map .zone[data-zone]")) {
  const t = document.querySelector('#map text[data-zone="' + CSS.escape(s.dataset.zone) + '"]');
  out[s.dataset.zone] = { count: s.dataset.count === undefined ? null : Number(s.dataset.count),
                          occupied: s.classList.contains("occupied"), label: t ? t.textContent : null,
                          title: (s.querySelector("title") || {}).textContent || "" };
}
return out;
"""


def check_occupancy(driver, url, keys, screenshot, deadline):
    """The map shows a count on each room someone is in ("2 · Room S1"), the same as GET /v1/venues/{id}/occupancy
    says at one moment (the counts follow the stream's occupancy events); a room nobody is in shows its name alone."""
    import json
    import urllib.request
    parts = urllib.parse.urlsplit(url)
    base = f"{parts.scheme}://{parts.netloc}"
    if "read" not in keys:
        fail(f"the demo server printed no read key (got {sorted(keys)})")
    last = None
    while time.monotonic() < deadline:
        call = urllib.request.Request(base + "/v1/venues/demo/occupancy",
                                      headers={"Authorization": "Bearer " + keys["read"]})
        with urllib.request.urlopen(call, timeout=10) as answer:
            served = {z["zone"]: z["count"] for z in json.loads(answer.read())["zones"]}
        shown = driver.execute_script(OCCUPANCY)
        last = (served, shown)
        occupied = [z for z, n in served.items() if n > 0]
        same = all(shown.get(z, {}).get("count") == n for z, n in served.items() if z in shown)
        labels = all((shown[z]["label"] or "").startswith(f"{n} ·") == (n > 0)
                     and shown[z]["occupied"] == (n > 0) and shown[z]["title"].startswith(f"{n} ·") == (n > 0)
                     for z, n in served.items() if z in shown)
        if occupied and same and labels:
            example = occupied[0]
            print(f"map-test: room counts as served: {len(occupied)} rooms occupied, "
                  f"'{example}' shows '{shown[example]['label']}'")
            return
        time.sleep(0.5)
    problem(driver, screenshot)
    fail(f"the rooms' counts on the map did not match GET /v1/venues/demo/occupancy: {last}")


def check_crowded(driver, url, keys, screenshot, deadline):
    """Puts a venue with small rooms with long names close together and twelve devices close together, opens it on
    the map and checks its labels."""
    from urllib.parse import urlsplit
    parts = urlsplit(url)
    base = f"{parts.scheme}://{parts.netloc}"
    if "admin" not in keys or "ingest" not in keys:
        fail(f"the demo server printed no admin and ingest keys (got {sorted(keys)})")
    request(base, keys["admin"], "PUT", "/v1/venues/crowded", crowded_venue())
    sightings = []
    devices = [f"visitor-phone-{i:02d}" for i in range(12)]
    for step in range(6):
        for i, device in enumerate(devices):
            # Strongest at the middle node, a little different at the corners for each device: the fixes land
            # within about 1.5 m of each other around (7.5, 4).
            for node, rssi in (("n4", -58), ("n0", -70 - 2 * (i % 4)), ("n1", -70 - 2 * ((i + 1) % 4)),
                               ("n2", -70 - 2 * ((i + 2) % 4)), ("n3", -70 - 2 * ((i + 3) % 4) - i // 4)):
                sightings.append({"t": 100 + step * 0.5, "device": device, "node": node, "rssi": rssi})
    answer = request(base, keys["ingest"], "POST", "/v1/sightings", {"venue": "crowded", "sightings": sightings})
    print(f"map-test: crowded venue put; {answer.get('accepted')} sightings of {len(devices)} devices accepted, "
          f"{len(answer.get('fixes') or [])} fixes")
    driver.get(base + "/?venue=crowded")
    driver.execute_script(NO_GLIDE)
    snap = None
    while time.monotonic() < deadline:
        snap = driver.execute_script(LABELS)
        if len(snap["devices"]) == len(devices) and len(snap["zones"]) == 13:
            break
        time.sleep(0.25)
    else:
        problem(driver, screenshot)
        fail(f"the crowded venue did not draw its 13 rooms and {len(devices)} devices: "
             f"{len(snap['zones']) if snap else 0} rooms, {len(snap['devices']) if snap else 0} devices")
    driver.execute_script(NO_GLIDE)
    settle(driver, 1)
    where = driver.execute_script(DEVICES).values()
    xs, ys = [p[0] for p in where], [p[1] for p in where]
    print(f"map-test: crowded venue: {len(devices)} devices within x {min(xs):.1f}…{max(xs):.1f} m, "
          f"y {min(ys):.1f}…{max(ys):.1f} m")
    snap = check_labels(driver, screenshot, "crowded venue")
    shown = [d for d, v in snap["devices"].items() if v["shown"]]
    if not shown:
        problem(driver, screenshot)
        fail("crowded venue: no device label is shown")
    for device, v in snap["devices"].items():
        if device not in v["title"]:
            problem(driver, screenshot)
            fail(f"crowded venue: device '{device}' has no tooltip naming it: '{v['title']}'")
    if not any(n["shown"] for n in snap["names"].values()):
        problem(driver, screenshot)
        fail("crowded venue: no room name is shown")
    # Long names in narrow rooms go on several lines before they are shortened: most read in full at the first zoom.
    whole = [n for n in snap["names"].values() if n["shown"] and not n["text"].endswith("…")]
    if 2 * len(whole) < len(snap["names"]):
        problem(driver, screenshot)
        fail(f"crowded venue: only {len(whole)} of {len(snap['names'])} room names read in full (on one line or more)")
    from selenium.webdriver.common.by import By
    driver.find_element(By.ID, "zoom-in").click()
    driver.find_element(By.ID, "zoom-in").click()
    settle(driver)
    zoomed = check_labels(driver, screenshot, "crowded venue zoomed in twice")
    full = sum(1 for n in zoomed["names"].values() if n["shown"] and not n["text"].endswith("…"))
    print(f"map-test: crowded venue zoomed in: {full} room names in full")


def check_protections(driver, url, screenshot):
    """The page and its modules carry the browser's protections (a Content-Security-Policy that frames nothing, no
    Referer, no content sniffing), and the map ran under that policy without a violation in the console."""
    import urllib.request
    parts = urllib.parse.urlsplit(url)
    base = f"{parts.scheme}://{parts.netloc}"
    for path in ["/", "/assets/main.js"]:
        with urllib.request.urlopen(base + path, timeout=10) as answer:
            headers = {name.lower(): value for name, value in answer.getheaders()}
        policy = headers.get("content-security-policy", "")
        if "default-src 'self'" not in policy or "frame-ancestors 'none'" not in policy:
            fail(f"GET {path}: Content-Security-Policy is '{policy}'")
        if headers.get("referrer-policy") != "no-referrer" or headers.get("x-content-type-options") != "nosniff":
            fail(f"GET {path}: Referrer-Policy '{headers.get('referrer-policy')}', X-Content-Type-Options "
                 f"'{headers.get('x-content-type-options')}'")
    violations = [entry.get("message", "") for entry in driver.get_log("browser")
                  if "Content Security Policy" in entry.get("message", "")]
    if violations:
        problem(driver, screenshot)
        fail(f"the map broke its Content-Security-Policy: {violations[0]}")
    print("map-test: Content-Security-Policy, Referrer-Policy and nosniff present; no policy violation")


def problem(driver, screenshot):
    """Prints what the page said (its status line, console errors) to explain a failure."""
    try:
        for entry in driver.get_log("browser"):
            print(f"map-test: browser console: {entry.get('level')} {entry.get('message')}", file=sys.stderr)
        if screenshot:
            driver.save_screenshot(screenshot)
            print(f"map-test: screenshot in {screenshot}", file=sys.stderr)
    except Exception as error:  # the explanation is best effort; the failure is reported anyway
        print(f"map-test: (could not read the browser's log: {error})", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="Server/.build/debug/indoor")
    parser.add_argument("--timeout", type=float, default=90, help="seconds for the whole browser check")
    parser.add_argument("--screenshot", help="save a PNG of the demo venue fitted, once its labels are checked "
                        "(and of the page on failure)")
    parser.add_argument("--screenshots", help="the folder for the layout's screenshots at 390 × 844 and 1400 × 900 "
                        "(default: a new temporary folder, kept)")
    arguments = parser.parse_args()
    if not os.access(arguments.binary, os.X_OK):
        fail(f"'{arguments.binary}' is not an executable: swift build --package-path Server --product indoor", 2)
    try:
        import selenium  # noqa: F401
    except ImportError:
        fail("selenium is not installed (pip install selenium)", 2)

    screenshots = arguments.screenshots or tempfile.mkdtemp(prefix="indoor-map-screenshots-")
    os.makedirs(screenshots, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="indoor-map-test-")
    process, url, keys = start_server(arguments.binary, folder)
    print(f"map-test: server pid {process.pid}, map {re.sub(r'key=[^&]+', 'key=…', url)}")
    driver = None
    try:
        driver = browser(os.path.join(folder, "profile"))
        run(driver, url, keys, arguments.timeout, arguments.screenshot, screenshots)
    except Exception as error:  # selenium's errors (no browser, a crash, a time-out) as one clear line
        if driver is not None:
            problem(driver, arguments.screenshot)
        first = str(error).strip().splitlines()[0] if str(error).strip() else ""
        fail(f"the browser failed: {error.__class__.__name__}: {first}")
    finally:
        if driver is not None:
            driver.quit()
        stop_server(process)
        shutil.rmtree(folder, ignore_errors=True)
    print("map-test: passed")


if __name__ == "__main__":
    main()
