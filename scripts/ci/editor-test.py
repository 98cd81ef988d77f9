#!/usr/bin/env python3
"""Real-browser test of the venue editor on the live map of `indoor serve`.

Starts `indoor serve --demo --port 0` (the binary given, a temporary database of its own), puts a small venue of its
own with the admin key the server printed, and opens the map on it in headless Chromium (selenium, as
scripts/ci/map-test.py does). Then it opens the editor ("Edit venue", the admin key typed into the editor's form:
never in the address), adds three nodes by clicking the plan at screen points whose venue metres it computes from
the map's transform (`window.indoorMap.transform()`), fills each node's form by keyboard (id, height, beacon) and
confirms with Enter, draws a room by clicking four corners and closes it with Enter, names it, drags a node, nudges it
with an arrow key, undoes both with Ctrl+Z, draws a wall and sets the geographic anchor, and saves. It reads the
venue back with `GET /v1/venues/{id}` and checks each node and the room's corners lie within 1 cm of what the clicks
mean, and the wall and anchor are there. Then it adds a node with an id already used, saves, and checks that the
server's error is shown at that node on the plan (and in the panel) and that the unsaved edit is kept (the two nodes
of that id still drawn, the draft unchanged). It uploads and places a floor-plan image. Last it undoes the duplicate,
draws stairs with the Stairs/lift tool (four clicks, Enter, joined to floor 1) and sets the anchor by two points with
their latitude and longitude, saves, and checks the footprint within 1 cm of the clicks and that the saved anchor has
the bearing and puts both points within 1 cm of where they were clicked. Then, in a phone-sized window (390 × 844),
it leaves the editor and opens it again from the header: the editor's panel is a drawer under the plan, the plan keeps
at least 80% of the width, a click with the Node tool opens the node's form in the drawer, and the drawer's × button
closes it and the header's Editor button opens it again. Stops the server by its pid at the end.

    scripts/ci/editor-test.py [--binary Server/.build/debug/indoor] [--timeout 120] [--screenshot FILE]
                              [--screenshots DIR]
    scripts/ci/editor-test.py --walkthrough [--binary …]   # docs/EDITOR.md's walkthrough, its clicks and keys counted

Exit status 0 on success; 1 with a message saying what did not happen on failure; 2 when a tool is missing.
"""

import argparse
import importlib.util
import json
import math
import os
import re
import shutil
import sys
import tempfile
import time
import urllib.error
import urllib.request
from urllib.parse import parse_qsl, urlencode, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("map_test", os.path.join(HERE, "map-test.py"))
map_test = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(map_test)

VENUE_ID = "editor-test"
VENUE = {
    "id": VENUE_ID,
    "name": "Editor test",
    "floors": [{"level": 0, "name": "Ground floor", "outline": [[0, 0], [24, 0], [24, 14], [0, 14]], "walls": []},
               {"level": 1, "name": "First floor", "outline": [[0, 0], [24, 0], [24, 14], [0, 14]]}],
    "nodes": [
        {"id": "corner-a", "x": 1, "y": 1, "z": 2.5, "floor": 0},
        {"id": "corner-b", "x": 23, "y": 13, "z": 2.5, "floor": 0},
    ],
    "zones": [],
}


# What the scripted browser did, counted as a person would do it: pointer clicks (on the plan, on buttons and to put
# the cursor in a form field that does not have it already), keys (each character typed, and Ctrl+A, Delete, Enter,
# arrows, Ctrl+Z as one each) and drags.
COUNT = {"clicks": 0, "keys": 0, "drags": 0}


def fail(message, code=1):
    print(f"editor-test: FAILED: {message}", file=sys.stderr)
    sys.exit(code)


def say(message):
    print(f"editor-test: {message}")


def call(base, key, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers={
        "Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def wait(driver, script, what, deadline, screenshot):
    """Runs `script` until it returns something truthy; fails naming `what` at the deadline."""
    while time.monotonic() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.1)
    map_test.problem(driver, screenshot)
    fail(f"{what} (waited until the deadline)")


def click_at(driver, x, y, double=False):
    """Clicks (or double-clicks) the page at the client pixel (x, y), integers."""
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    COUNT["clicks"] += 2 if double else 1
    builder = ActionBuilder(driver)
    builder.pointer_action.move_to_location(int(x), int(y))
    builder.pointer_action.double_click() if double else builder.pointer_action.click()
    builder.perform()


def drag(driver, start, end):
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    COUNT["drags"] += 1
    builder = ActionBuilder(driver)
    builder.pointer_action.move_to_location(int(start[0]), int(start[1]))
    builder.pointer_action.pointer_down()
    for step in range(1, 6):
        builder.pointer_action.move_to_location(int(start[0] + (end[0] - start[0]) * step / 5),
                                                int(start[1] + (end[1] - start[1]) * step / 5))
    builder.pointer_action.pointer_up()
    builder.perform()


def keys(driver, *sequence):
    from selenium.webdriver.common.action_chains import ActionChains
    COUNT["keys"] += sum(1 if len(key) == 1 and ord(key) >= 0xE000 else len(key) for key in sequence)
    ActionChains(driver).send_keys(*sequence).perform()


def tap(driver, selector):
    """Clicks the page element `selector` (a CSS selector) as a person would: one click."""
    from selenium.webdriver.common.by import By
    COUNT["clicks"] += 1
    driver.find_element(By.CSS_SELECTOR, selector).click()


def undo(driver):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    COUNT["keys"] += 1
    driver.execute_script("document.getElementById('map').focus();")
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()


def metres(transform, x, y):
    """The venue metres at the client pixel (x, y): the inverse of the map's transform."""
    px, py = x - transform["left"], y - transform["top"]
    return (px - transform["x"]) / transform["scale"], (transform["y"] - py) / transform["scale"]


def screen_point(driver, x, y):
    """The integer client pixel nearest the venue point (x, y), and the venue metres that pixel means."""
    sx, sy = driver.execute_script("return window.indoorMap.toScreen(arguments[0], arguments[1]);", x, y)
    sx, sy = round(sx), round(sy)
    return (sx, sy), metres(driver.execute_script("return window.indoorMap.transform();"), sx, sy)


def fill(driver, values):
    """Types into the editor's open form by name, then confirms with Enter in the last field typed."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    field = None
    for name, value in values.items():
        field = driver.find_element(By.CSS_SELECTOR, f'#edit-form input[name="{name}"]')
        if not driver.execute_script("return document.activeElement === arguments[0];", field):
            COUNT["clicks"] += 1
        if field.get_attribute("value"):
            COUNT["keys"] += 2
            field.send_keys(Keys.CONTROL, "a")
            field.send_keys(Keys.DELETE)
        COUNT["keys"] += len(str(value))
        field.send_keys(str(value))
    COUNT["keys"] += 1
    field.send_keys(Keys.ENTER)


def draw_polygon(driver, points, what, deadline, screenshot):
    """Clicks the venue points `points` on the plan with the tool chosen, closes the shape with Enter and waits for
    its form; returns the venue metres each click means."""
    from selenium.webdriver.common.keys import Keys
    clicked = []
    for x, y in points:
        pixel, point = screen_point(driver, x, y)
        click_at(driver, *pixel)
        clicked.append(point)
    keys(driver, Keys.ENTER)
    wait(driver, "return !document.getElementById('edit-form').hidden;", f"no form opened for {what}", deadline,
         screenshot)
    return clicked


def near(a, b, tolerance=0.01):
    return math.hypot(a[0] - b[0], a[1] - b[1]) <= tolerance


def open_editor(driver, url, admin, venue, timeout, deadline, screenshot):
    """PUTs `venue`, opens the map on it and the editor with the admin key typed into the editor's own form (the
    address never carries it; a person pastes it: counted as Ctrl+V and Enter). Returns the server's base address."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    parts = urlsplit(url)
    base = f"{parts.scheme}://{parts.netloc}"
    status, answer = call(base, admin, "PUT", f"/v1/venues/{venue['id']}", venue)
    if status not in (200, 201):
        fail(f"PUT of venue '{venue['id']}' answered {status}: {answer}")
    driver.set_page_load_timeout(max(timeout, 30))
    query = dict(parse_qsl(parts.query))
    query["venue"] = venue["id"]
    # The read key travels in the fragment (never sent to the server), as the server prints it.
    driver.get(base + "/?" + urlencode(query) + ("#" + parts.fragment if parts.fragment else ""))
    wait(driver, "return document.querySelectorAll('#map .outline').length && window.indoorMap;",
         f"venue '{venue['id']}''s plan did not draw", deadline, screenshot)
    tap(driver, "#edit")
    wait(driver, "return !document.getElementById('edit-key').hidden;", "the editor did not ask for the admin key",
         deadline, screenshot)
    key_field = driver.find_element(By.ID, "edit-key-input")
    key_field.send_keys(admin)
    key_field.send_keys(Keys.ENTER)
    COUNT["keys"] += 2
    wait(driver, "return window.indoorMap.editing();", "the editor did not open with the admin key", deadline,
         screenshot)
    return base


def save(driver, base, read, venue_id, what, deadline, screenshot):
    """Clicks Save, waits for 'Saved' and returns the venue read back with GET."""
    tap(driver, "#edit-save")
    wait(driver, "return document.getElementById('edit-state').textContent.startsWith('Saved');",
         f"the editor did not say 'Saved' {what}", deadline, screenshot)
    status, saved = call(base, read, "GET", f"/v1/venues/{venue_id}")
    if status != 200:
        fail(f"GET /v1/venues/{venue_id} answered {status}: {saved}")
    return saved


def run(driver, url, admin, read, ingest, timeout, screenshot, screenshots):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    deadline = time.monotonic() + timeout
    base = open_editor(driver, url, admin, VENUE, timeout, deadline, screenshot)
    if admin in driver.current_url:
        fail("the admin key is in the address bar")
    say("editor open with the admin key (typed into the editor, not in the address)")

    # The live devices keep moving while editing: a walker heard near one corner node, then near the other.
    if ingest:
        where = []
        for start, loud in ((100, "corner-a"), (110, "corner-b")):
            quiet = "corner-b" if loud == "corner-a" else "corner-a"
            sightings = [{"t": start + step * 0.5, "device": "walker", "node": node, "rssi": rssi}
                         for step in range(4) for node, rssi in ((loud, -50), (quiet, -85))]
            status, answer = call(base, ingest, "POST", "/v1/sightings", {"venue": VENUE_ID, "sightings": sightings})
            if status != 200:
                fail(f"POST /v1/sightings answered {status}: {answer}")
            seen = where[-1] if where else None
            where.append(wait(driver, """const g = document.querySelector('#devices g.device[data-device="walker"]');
              if (!g || !window.indoorMap.editing()) return null;
              const at = [Number(g.dataset.x), Number(g.dataset.y)];
              return JSON.stringify(at) === JSON.stringify(arguments[0]) ? null : at;""".replace(
                "arguments[0]", json.dumps(seen)), f"the walker did not show up (again) while editing after t = {start}",
                deadline, screenshot))
        say(f"a live device moved from {where[0]} to {where[1]} while editing")

    # Three nodes, each by a click on the plan and its form (Tab-free: the id field has the focus; Enter confirms).
    tap(driver, '#edit-tools [data-tool="node"]')
    wanted = {"ed-1": (5.37, 4.21, 2.2, "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0/7/1"),
              "ed-2": (12.8, 9.6, 2.5, ""), "ed-3": (19.05, 3.3, 3, "")}
    expected = {}
    for node_id, (x, y, z, beacon) in wanted.items():
        pixel, point = screen_point(driver, x, y)
        click_at(driver, *pixel)
        wait(driver, "return !document.getElementById('edit-form').hidden;", f"no form opened for node {node_id}",
             deadline, screenshot)
        form = driver.execute_script("""const f = document.getElementById('edit-form');
          return { x: Number(f.querySelector('[name=x]').value), y: Number(f.querySelector('[name=y]').value),
                   focused: document.activeElement && document.activeElement.name };""")
        if form["focused"] != "id" or not near((form["x"], form["y"]), point, 0.0011):
            fail(f"node {node_id}: the form has ({form['x']}, {form['y']}), focus on '{form['focused']}'; the click "
                 f"at {pixel} means ({point[0]:.4f}, {point[1]:.4f})")
        values = {"id": node_id, "z": z}
        if beacon:
            values["beacon"] = beacon
        fill(driver, values)
        expected[node_id] = (point, z, beacon)
    drawn = driver.execute_script("return Array.from(document.querySelectorAll('circle.node'), c => c.dataset.node);")
    if not all(n in drawn for n in wanted):
        fail(f"the new nodes are not drawn: {drawn}")
    say(f"three nodes added by clicks: {', '.join(f'{n} at ({p[0]:.3f}, {p[1]:.3f})' for n, (p, _, _) in expected.items())}")

    # Drag ed-2 by 40 px, nudge it by the arrow key, then undo both with Ctrl+Z: it is back where it was.
    tap(driver, '#edit-tools [data-tool="select"]')
    start, _ = screen_point(driver, *expected["ed-2"][0])
    drag(driver, start, (start[0] + 40, start[1] + 20))
    moved = driver.execute_script("const n = window.indoorMap.draft().nodes.find(n => n.id === 'ed-2'); return [n.x, n.y];")
    target = metres(driver.execute_script("return window.indoorMap.transform();"), start[0] + 40, start[1] + 20)
    if not near(moved, target):
        fail(f"dragging ed-2 to {target} left it at {moved}")
    driver.execute_script("document.getElementById('map').focus();")
    keys(driver, Keys.ARROW_RIGHT)
    nudged = driver.execute_script("const n = window.indoorMap.draft().nodes.find(n => n.id === 'ed-2'); return [n.x, n.y];")
    if not near(nudged, (moved[0] + 0.1, moved[1]), 0.0011):
        fail(f"the right arrow moved ed-2 from {moved} to {nudged}, not by 0.1 m")
    for _ in range(2):
        undo(driver)
    back = driver.execute_script("const n = window.indoorMap.draft().nodes.find(n => n.id === 'ed-2'); return [n.x, n.y];")
    if not near(back, expected["ed-2"][0], 0.0011):
        fail(f"two undos left ed-2 at {back}, not back at {expected['ed-2'][0]}")
    say(f"drag to ({moved[0]:.3f}, {moved[1]:.3f}), nudge by 0.1 m and two undos (Ctrl+Z) back to "
        f"({back[0]:.3f}, {back[1]:.3f})")

    # A room: four corners clicked, closed by Enter, named in its form.
    tap(driver, '#edit-tools [data-tool="room"]')
    corners = draw_polygon(driver, [(2.1, 6.4), (9.75, 6.4), (9.75, 12.3), (2.1, 12.3)], "the new room", deadline,
                           screenshot)
    fill(driver, {"id": "meeting", "name": "Meeting room"})
    say("room drawn by four clicks, closed with Enter and named")

    # A wall by two clicks, and the anchor at the origin.
    tap(driver, '#edit-tools [data-tool="wall"]')
    wall = []
    for x, y in [(12, 0.5), (12, 7)]:
        pixel, point = screen_point(driver, x, y)
        click_at(driver, *pixel)
        wall.append(point)
    tap(driver, '#edit-tools [data-tool="anchor"]')
    pixel, point = screen_point(driver, 0, 0)
    click_at(driver, *pixel)
    wait(driver, "return !document.getElementById('edit-form').hidden;", "no form opened for the anchor", deadline,
         screenshot)
    fill(driver, {"x": 0, "y": 0, "latitude": 52.520008, "longitude": 13.404954, "bearingDegrees": 20})

    if screenshot:
        driver.save_screenshot(screenshot)
    saved = save(driver, base, read, VENUE_ID, "after the nodes, the room, the wall and the anchor", deadline,
                 screenshot)
    nodes = {n["id"]: n for n in saved.get("nodes", [])}
    for node_id, (point, z, beacon) in expected.items():
        node = nodes.get(node_id)
        if not node:
            fail(f"the saved venue has no node '{node_id}': {sorted(nodes)}")
        if not near((node["x"], node["y"]), point) or abs(node.get("z", 0) - z) > 1e-9 or node.get("floor") != 0:
            fail(f"node {node_id} saved at ({node['x']}, {node['y']}, z {node.get('z')}, floor {node.get('floor')}); "
                 f"the click means ({point[0]:.4f}, {point[1]:.4f}, z {z}, floor 0)")
        if beacon and node.get("beacon", "").upper() != beacon.upper():
            fail(f"node {node_id} saved with beacon {node.get('beacon')}, not {beacon}")
    zone = next((z for z in saved.get("zones", []) if z["id"] == "meeting"), None)
    if not zone or zone.get("name") != "Meeting room":
        fail(f"the saved venue has no room 'meeting' named 'Meeting room': {saved.get('zones')}")
    polygon = zone["fences"][0]["polygon"]
    if len(polygon) != 4 or not all(near(p, q) for p, q in zip(polygon, corners)):
        fail(f"the room's corners were saved as {polygon}; the clicks mean {corners}")
    walls = saved["floors"][0].get("walls", [])
    if len(walls) != 1 or not all(near(p, q) for p, q in zip(walls[0], wall)):
        fail(f"the wall was saved as {walls}; the clicks mean {wall}")
    anchor = saved.get("anchor") or {}
    if abs(anchor.get("latitude", 0) - 52.520008) > 1e-9 or abs(anchor.get("bearingDegrees", 0) - 20) > 1e-9:
        fail(f"the anchor was saved as {anchor}")
    say(f"saved and read back: 3 nodes and the room's 4 corners within 1 cm of the clicks, the wall, the anchor "
        f"({anchor['latitude']}, {anchor['longitude']}, bearing {anchor['bearingDegrees']}°)")

    # A validation error: a fourth node with an id already used. The error is shown at that node; the edit is kept.
    tap(driver, '#edit-tools [data-tool="node"]')
    pixel, point = screen_point(driver, 16.4, 11.2)
    click_at(driver, *pixel)
    wait(driver, "return !document.getElementById('edit-form').hidden;", "no form opened for the duplicate node",
         deadline, screenshot)
    fill(driver, {"id": "ed-1"})
    tap(driver, "#edit-save")
    shown = wait(driver, """const t = document.querySelector('#handles text.edit-error');
      const box = document.getElementById('edit-error');
      if (!t || box.hidden) return null;
      const r = t.getBoundingClientRect();
      return { text: t.textContent, field: t.dataset.field, left: r.left, top: r.top, bottom: r.bottom,
               panel: box.textContent,
               note: (document.querySelector('#edit-form .field-error[data-for=id]') || {}).textContent || '',
               drawn: document.querySelectorAll('circle.node[data-node="ed-1"]').length,
               draft: window.indoorMap.draft().nodes.length };""",
                 "no error was shown after saving a duplicate node id", deadline, screenshot)
    index = len(saved["nodes"])
    if not shown["field"].startswith(f"nodes[{index}]") or "twice" not in shown["text"]:
        fail(f"the error shown is {shown}; expected the duplicate id at nodes[{index}]")
    if not (shown["left"] - 40 <= pixel[0] <= shown["left"] + 10 and shown["top"] - 20 <= pixel[1] <= shown["bottom"] + 20):
        fail(f"the error text is at ({shown['left']:.0f}, {shown['top']:.0f}), not next to the node at {pixel}")
    if shown["drawn"] != 2 or shown["draft"] != index + 1 or "twice" not in shown["note"]:
        fail(f"the unsaved edit was not kept or the form does not note the id: {shown}")
    status, after = call(base, read, "GET", f"/v1/venues/{VENUE_ID}")
    if len(after["nodes"]) != index:
        fail(f"the refused venue changed the stored one: {len(after['nodes'])} nodes")
    say(f"duplicate id refused: '{shown['panel']}', shown at the node on the plan and in its form; the edit is kept "
        f"({shown['drawn']} nodes 'ed-1' drawn)")

    # A floor-plan image: uploaded from the editor, placed by two points, their distance and where the first lies.
    handle, path = tempfile.mkstemp(prefix="indoor-editor-test-", suffix=".png")
    os.write(handle, png(100, 50))
    os.close(handle)
    driver.find_element(By.ID, "edit-image").send_keys(path)
    wait(driver, "return document.getElementById('edit-state').textContent.startsWith('Image uploaded')",
         "the editor did not say 'Image uploaded'", deadline, screenshot)
    os.remove(path)
    wait(driver, "return document.querySelector('#edit-form input[name=u1]');", "no placement form after the upload",
         deadline, screenshot)
    fill(driver, {"u1": 0, "v1": 0, "u2": 100, "v2": 0, "distance": 10, "x": 2, "y": 12, "rotation": 0})
    wait(driver, "return document.getElementById('edit-state').textContent.startsWith('Image placed');",
         "the editor did not say 'Image placed'", deadline, screenshot)
    status, info = call(base, read, "GET", f"/v1/venues/{VENUE_ID}/floors/0/image/placement")
    placement = (info or {}).get("placement") or {}
    if status != 200 or info.get("contentType") != "image/png" or placement.get("imagePoints") != [[0, 0], [100, 0]] \
            or placement.get("distanceMeters") != 10 or placement.get("at") != [2, 12] \
            or placement.get("rotationDegrees") != 0:
        fail(f"the stored image placement is {status} {info}")
    box = wait(driver, """const i = document.querySelector('#backdrop image.floor-image[data-placed="1"]');
      if (!i) return null; const r = i.getBoundingClientRect();
      return { left: r.left, top: r.top, width: r.width, height: r.height,
               at: window.indoorMap.toScreen(2, 12), scale: window.indoorMap.transform().scale };""",
               "the placed image is not drawn under the plan", deadline, screenshot)
    if abs(box["left"] - box["at"][0]) > 1.5 or abs(box["top"] - box["at"][1]) > 1.5 \
            or abs(box["width"] - 10 * box["scale"]) > 1.5 or abs(box["height"] - 5 * box["scale"]) > 1.5:
        fail(f"the image is drawn at {box}; its placement puts it at {box['at']}, 10 m x 5 m")
    say(f"floor image uploaded and placed (2 points 100 px apart = 10 m, first at (2, 12) m): stored {placement}, "
        f"drawn at ({box['left']:.0f}, {box['top']:.0f}) px, {box['width']:.0f} x {box['height']:.0f} px")
    if screenshot:
        driver.save_screenshot(screenshot)
    stairs_and_anchor(driver, base, read, deadline, screenshot)
    phone(driver, deadline, screenshot, screenshots)


# The phone's layout while editing: the viewport, the plan's box, the side panel's and the editor's boxes.
PHONE = """
const box = (e) => { const r = e.getBoundingClientRect();
  return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height }; };
const side = document.getElementById("side"), form = document.getElementById("edit-form");
return { width: window.innerWidth, height: window.innerHeight, map: box(document.getElementById("map")),
         side: { ...box(side), display: getComputedStyle(side).display },
         editor: box(document.getElementById("editor")), tools: box(document.getElementById("edit-tools")),
         form: form.hidden ? null : box(form), editing: window.indoorMap.editing() };
"""


def phone(driver, deadline, screenshot, screenshots):
    """At 390 × 844: the editor opened from the header is a drawer under the plan, which keeps at least 80% of the
    width; the Node tool's click opens the node's form in it; × closes the drawer and the Editor button opens it.
    With `screenshots` (a folder), saves the node's form in the drawer there."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    def opened(what):
        layout = driver.execute_script(PHONE)
        side, tools, plan = layout["side"], layout["tools"], layout["map"]
        if side["display"] == "none" or tools["height"] <= 0 or tools["top"] < 0 or tools["bottom"] > layout["height"]:
            map_test.problem(driver, screenshot)
            fail(f"390 × 844: {what}: the editor's drawer is not on screen: {side}, its tools {tools}")
        if plan["width"] < 0.8 * layout["width"] or plan["bottom"] > side["top"] + 0.5:
            map_test.problem(driver, screenshot)
            fail(f"390 × 844: {what}: the plan {plan} is under 80% of the width or under the drawer {side}")
        return layout

    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        time.sleep(0.8)
        tap(driver, "#edit")   # leaves the editor (everything is saved)
        wait(driver, "return !window.indoorMap.editing() && document.getElementById('side').getBoundingClientRect()"
             ".left >= window.innerWidth - 1;", "390 × 844: the editor did not close with its drawer", deadline,
             screenshot)
        tap(driver, "#edit")
        wait(driver, "return window.indoorMap.editing();", "390 × 844: the editor did not open", deadline, screenshot)
        time.sleep(0.3)
        layout = opened("opened from the header")
        say(f"390 × 844: the editor opens as a drawer under the plan ({layout['side']['height']:.0f} px high); the "
            f"plan is {layout['map']['width']:.0f} × {layout['map']['height']:.0f} px "
            f"({layout['map']['width'] / layout['width']:.0%} of the width)")
        tap(driver, '#edit-tools [data-tool="node"]')
        tap(driver, "#side-close")
        time.sleep(0.3)
        closed = driver.execute_script(PHONE)
        if closed["side"]["display"] != "none" or not closed["editing"] \
                or closed["map"]["height"] <= layout["map"]["height"]:
            map_test.problem(driver, screenshot)
            fail(f"390 × 844: the × button did not close the editor's drawer (still editing, the plan taller): "
                 f"{closed}")
        point, _ = screen_point(driver, 6, 7)
        click_at(driver, *point)
        wait(driver, "return !document.getElementById('edit-form').hidden;",
             "390 × 844: a click with the Node tool opened no form", deadline, screenshot)
        time.sleep(0.3)
        layout = opened("a click with the Node tool")
        form = layout["form"]
        if not form or form["top"] < 0 or form["top"] > layout["height"] - 20:
            map_test.problem(driver, screenshot)
            fail(f"390 × 844: the node's form is not in the drawer on screen: {form}")
        if screenshots:
            driver.save_screenshot(os.path.join(screenshots, "editor-390x844.png"))
        driver.find_element(By.CSS_SELECTOR, "#edit-form input[name=id]").send_keys(Keys.ESCAPE)
        tap(driver, "#side-close")
        tap(driver, "#side-open")
        time.sleep(0.3)
        opened("the header's Editor button")
        say("390 × 844: a click with the Node tool opens the node's form in the drawer; × closes the drawer, the "
            "Editor button opens it again")
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


# The anchor the two-point check types: the latitude and longitude of two plan points are where this anchor puts them.
TRUE_ANCHOR = {"latitude": 48.137154, "longitude": 11.576124, "bearingDegrees": -35.5}


def stairs_and_anchor(driver, base, read, deadline, screenshot):
    """Stairs drawn with the Stairs/lift tool (four clicks, Enter, joined to floor 1 in its form) and the geographic
    anchor set by two points with their latitude and longitude; saved and read back."""
    undo(driver)   # the refused duplicate node goes
    tap(driver, '#edit-tools [data-tool="connection"]')
    footprint = draw_polygon(driver, [(20.2, 9.1), (23.4, 9.1), (23.4, 13.3), (20.2, 13.3)], "the stairs", deadline,
                             screenshot)
    levels = driver.execute_script("return document.querySelector('#edit-form input[name=levels]').value;")
    if levels != "0, 1":
        fail(f"the stairs' form proposes floors '{levels}', not '0, 1' (this floor and the one above)")
    fill(driver, {"id": "stairs-east"})
    drawn = wait(driver, "return document.querySelector('#plan polygon.connection[data-connection=\"stairs-east\"]');",
                 "the new stairs are not drawn", deadline, screenshot)
    say(f"stairs drawn by four clicks, closed with Enter, joining floors {levels} ({bool(drawn)})")

    # The anchor by two points: the origin's form, then "Two points…", then a click on the plan fills point 2.
    tap(driver, '#edit-tools [data-tool="anchor"]')
    first, p1 = screen_point(driver, 1, 1)
    click_at(driver, *first)
    wait(driver, "return document.getElementById('edit-anchor-two');", "no 'Two points…' in the anchor's form",
         deadline, screenshot)
    tap(driver, "#edit-anchor-two")
    second, p2 = screen_point(driver, 22, 8)
    click_at(driver, *second)
    form = driver.execute_script("""const f = document.getElementById('edit-form');
      return ['x1', 'y1', 'x2', 'y2'].map(n => Number(f.querySelector('[name=' + n + ']').value));""")
    if not near(form[0:2], p1, 0.0011) or not near(form[2:4], p2, 0.0011):
        fail(f"the two-point form holds {form}; the clicks mean {p1} and {p2}")
    g1, g2 = geo(TRUE_ANCHOR, form[0:2]), geo(TRUE_ANCHOR, form[2:4])
    fill(driver, {"latitude1": f"{g1[0]:.9f}", "longitude1": f"{g1[1]:.9f}",
                  "latitude2": f"{g2[0]:.9f}", "longitude2": f"{g2[1]:.9f}"})

    saved = save(driver, base, read, VENUE_ID, "after the stairs and the anchor", deadline, screenshot)
    stairs = next((c for c in saved.get("connections", []) if c["id"] == "stairs-east"), None)
    if not stairs or stairs.get("kind", "stairs") != "stairs" or stairs.get("levels") != [0, 1]:
        fail(f"the saved venue has no stairs 'stairs-east' of kind stairs joining [0, 1]: {saved.get('connections')}")
    polygon = stairs.get("polygon") or []
    if len(polygon) != 4 or not all(near(p, q) for p, q in zip(polygon, footprint)):
        fail(f"the stairs' footprint was saved as {polygon}; the clicks mean {footprint}")
    anchor = saved.get("anchor") or {}
    bearing = anchor.get("bearingDegrees", 0)
    if abs(bearing - TRUE_ANCHOR["bearingDegrees"]) > 0.001:
        fail(f"the two points gave bearing {bearing}°, not {TRUE_ANCHOR['bearingDegrees']}°")
    for point, coordinate in ((form[0:2], g1), (form[2:4], g2)):
        back = local(anchor, coordinate)
        if not near(back, point):
            fail(f"the saved anchor {anchor} puts ({coordinate[0]:.9f}, {coordinate[1]:.9f}) at {back}, not at "
                 f"{point} (more than 1 cm)")
    say(f"saved and read back: the stairs' 4 corners within 1 cm of the clicks, floors [0, 1]; the anchor by two "
        f"points ({anchor['latitude']}, {anchor['longitude']}, bearing {bearing}°) puts both points within 1 cm")


WALKTHROUGH_ID = "walkthrough"
# Ten nodes and four rooms on a 24 m x 14 m floor (metres), as docs/EDITOR.md walks through them.
WALKTHROUGH_NODES = [(1, 1), (8, 1), (16, 1), (23, 1), (1, 7), (12, 7), (23, 7), (1, 13), (12, 13), (23, 13)]
WALKTHROUGH_ROOMS = [("Lobby", [(0.2, 0.2), (11.8, 0.2), (11.8, 6.8), (0.2, 6.8)]),
                     ("Office", [(12.2, 0.2), (23.8, 0.2), (23.8, 6.8), (12.2, 6.8)]),
                     ("Meeting", [(0.2, 7.2), (11.8, 7.2), (11.8, 13.8), (0.2, 13.8)]),
                     ("Kitchen", [(12.2, 7.2), (23.8, 7.2), (23.8, 13.8), (12.2, 13.8)])]


def walkthrough(driver, url, admin, read, timeout, screenshot):
    """docs/EDITOR.md's walkthrough, done by the browser and counted: from a venue of one bare floor and its first
    node, and a floor-plan image file, to a saved venue of ten nodes (each at height 2.5 m) and four named rooms,
    placed on the Earth."""
    from selenium.webdriver.common.by import By
    deadline = time.monotonic() + timeout
    # The server stores no venue without a node: the bare venue has its floor and the first of the ten nodes.
    first = WALKTHROUGH_NODES[0]
    bare = {"id": WALKTHROUGH_ID, "name": "Walkthrough",
            "floors": [{"level": 0, "name": "Ground floor", "outline": [[0, 0], [24, 0], [24, 14], [0, 14]]}],
            "nodes": [{"id": "node-1", "x": first[0], "y": first[1], "z": 2.5, "floor": 0}]}
    started = time.monotonic()
    base = open_editor(driver, url, admin, bare, timeout, deadline, screenshot)

    # The floor plan: a 240 x 140 px image whose 240 px are the floor's 24 m, its top-left corner at (0, 14) m.
    handle, path = tempfile.mkstemp(prefix="indoor-walkthrough-", suffix=".png")
    os.write(handle, png(240, 140))
    os.close(handle)
    COUNT["clicks"] += 2   # "Floor plan image", then the file in the browser's file dialog
    driver.find_element(By.ID, "edit-image").send_keys(path)
    wait(driver, "return document.querySelector('#edit-form input[name=u1]');", "no placement form after the upload",
         deadline, screenshot)
    os.remove(path)
    fill(driver, {"u1": 0, "v1": 0, "u2": 240, "v2": 0, "distance": 24, "x": 0, "y": 14})
    wait(driver, "return document.getElementById('edit-state').textContent.startsWith('Image placed');",
         "the image was not placed", deadline, screenshot)

    tap(driver, '#edit-tools [data-tool="node"]')
    clicked = [first]
    for x, y in WALKTHROUGH_NODES[1:]:
        pixel, point = screen_point(driver, x, y)
        click_at(driver, *pixel)
        wait(driver, "return !document.getElementById('edit-form').hidden;", "no node form", deadline, screenshot)
        fill(driver, {"z": 2.5})
        clicked.append(point)
    tap(driver, '#edit-tools [data-tool="room"]')
    for name, corners in WALKTHROUGH_ROOMS:
        draw_polygon(driver, corners, f"room {name}", deadline, screenshot)
        fill(driver, {"name": name})
    tap(driver, '#edit-tools [data-tool="anchor"]')
    click_at(driver, *screen_point(driver, 0, 0)[0])
    wait(driver, "return !document.getElementById('edit-form').hidden;", "no anchor form", deadline, screenshot)
    fill(driver, {"x": 0, "y": 0, "latitude": 52.520008, "longitude": 13.404954, "bearingDegrees": 20})
    saved = save(driver, base, read, WALKTHROUGH_ID, "at the end of the walkthrough", deadline, screenshot)
    seconds = time.monotonic() - started
    if screenshot:
        driver.save_screenshot(screenshot)
    nodes, zones = saved.get("nodes", []), saved.get("zones", [])
    if len(nodes) != 10 or [z.get("name") for z in zones] != [n for n, _ in WALKTHROUGH_ROOMS]:
        fail(f"the walkthrough's venue read back with {len(nodes)} nodes, rooms {[z.get('name') for z in zones]}")
    if not all(near((n["x"], n["y"]), p) and n.get("z") == 2.5 for n, p in zip(nodes, clicked)) or not saved.get("anchor"):
        fail(f"the walkthrough's nodes or anchor are not where the clicks put them: {nodes} {saved.get('anchor')}")
    say(f"walkthrough: a saved venue of 10 nodes (9 placed by clicks) and 4 rooms from a bare floor and a plan image, in "
        f"{COUNT['clicks']} clicks, {COUNT['keys']} keys and {COUNT['drags']} drags (the browser run took "
        f"{seconds:.1f} s; that is the script's speed, not a person's)")


# WGS84 and the local tangent plane, as the server converts (IndoorModel's GeoAnchor).
_A, _F = 6378137.0, 1 / 298.257223563
_E2 = _F * (2 - _F)


def _ecef(lat, lon):
    lat, lon = math.radians(lat), math.radians(lon)
    n = _A / math.sqrt(1 - _E2 * math.sin(lat) ** 2)
    return n * math.cos(lat) * math.cos(lon), n * math.cos(lat) * math.sin(lon), n * (1 - _E2) * math.sin(lat)


def geo(anchor, point):
    """(latitude, longitude) of the local point (x, y) under `anchor`."""
    b = math.radians(anchor.get("bearingDegrees", 0))
    x, y = point
    east, north = y * math.sin(b) + x * math.cos(b), y * math.cos(b) - x * math.sin(b)
    ox, oy, oz = _ecef(anchor["latitude"], anchor["longitude"])
    sl, cl = math.sin(math.radians(anchor["latitude"])), math.cos(math.radians(anchor["latitude"]))
    so, co = math.sin(math.radians(anchor["longitude"])), math.cos(math.radians(anchor["longitude"]))
    X, Y, Z = ox - so * east - sl * co * north, oy + co * east - sl * so * north, oz + cl * north
    lon, p = math.atan2(Y, X), math.hypot(X, Y)
    lat = math.atan2(Z, p * (1 - _E2))
    for _ in range(10):
        n = _A / math.sqrt(1 - _E2 * math.sin(lat) ** 2)
        lat = math.atan2(Z, p * (1 - _E2 * n / (n + p / math.cos(lat) - n)))
    return math.degrees(lat), math.degrees(lon)


def local(anchor, coordinate):
    """The local point (x, y) of (latitude, longitude) under `anchor`."""
    px, py, pz = _ecef(*coordinate)
    ox, oy, oz = _ecef(anchor["latitude"], anchor["longitude"])
    dx, dy, dz = px - ox, py - oy, pz - oz
    sl, cl = math.sin(math.radians(anchor["latitude"])), math.cos(math.radians(anchor["latitude"]))
    so, co = math.sin(math.radians(anchor["longitude"])), math.cos(math.radians(anchor["longitude"]))
    east, north = -so * dx + co * dy, -sl * co * dx - sl * so * dy + cl * dz
    b = math.radians(anchor.get("bearingDegrees", 0))
    return east * math.cos(b) - north * math.sin(b), east * math.sin(b) + north * math.cos(b)


def png(width, height):
    """A small RGB PNG: a light grid, so a screenshot shows where it lies."""
    import struct
    import zlib
    rows = b"".join(b"\x00" + b"".join(b"\xcc\xdd\xee" if (x % 10 == 0 or y % 10 == 0) else b"\xf8\xf8\xf0"
                                        for x in range(width)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="Server/.build/debug/indoor")
    parser.add_argument("--timeout", type=float, default=120, help="seconds for the whole browser check")
    parser.add_argument("--screenshot", help="save a PNG of the editor before saving (and of the page on failure)")
    parser.add_argument("--screenshots", help="a folder for a screenshot of the editor at phone width")
    parser.add_argument("--walkthrough", action="store_true",
                        help="instead of the checks, do docs/EDITOR.md's walkthrough (ten nodes, four rooms) and "
                             "count its clicks and keys")
    arguments = parser.parse_args()
    if not os.access(arguments.binary, os.X_OK):
        fail(f"'{arguments.binary}' is not an executable: swift build --package-path Server --product indoor", 2)
    try:
        import selenium  # noqa: F401
    except ImportError:
        fail("selenium is not installed (pip install selenium)", 2)

    folder = tempfile.mkdtemp(prefix="indoor-editor-test-")
    process, url, server_keys = map_test.start_server(arguments.binary, folder)
    say(f"server pid {process.pid}, map {re.sub(r'key=[^&]+', 'key=…', url)}")
    driver = None
    try:
        if "admin" not in server_keys or "read" not in server_keys:
            fail(f"the server printed no admin and read keys: {sorted(server_keys)}")
        driver = map_test.browser(os.path.join(folder, "profile"))
        if arguments.walkthrough:
            walkthrough(driver, url, server_keys["admin"], server_keys["read"], arguments.timeout, arguments.screenshot)
        else:
            if arguments.screenshots:
                os.makedirs(arguments.screenshots, exist_ok=True)
            run(driver, url, server_keys["admin"], server_keys["read"], server_keys.get("ingest"), arguments.timeout,
                arguments.screenshot, arguments.screenshots)
        # The editor (its floor image shown from a blob: address among the rest) ran under the server's
        # Content-Security-Policy without a violation.
        map_test.check_protections(driver, url, arguments.screenshot)
    except Exception as error:  # selenium's errors (no browser, a crash, a time-out) as one clear line
        if driver is not None:
            map_test.problem(driver, arguments.screenshot)
        first = str(error).strip().splitlines()[0] if str(error).strip() else ""
        fail(f"the browser failed: {error.__class__.__name__}: {first}")
    finally:
        if driver is not None:
            driver.quit()
        map_test.stop_server(process)
        shutil.rmtree(folder, ignore_errors=True)
    say("passed")


if __name__ == "__main__":
    main()
