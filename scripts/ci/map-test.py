#!/usr/bin/env python3
"""Real-browser test of the live map of `indoor serve`.

Starts `indoor serve --demo --port 0` (the binary given, a temporary database of its own), reads the printed map
address (it carries the read key), opens it in headless Chromium through chromium-driver (selenium), and waits,
bounded in time, until the floor plan has drawn (outline, nodes and zones in the SVG, the SVG on screen), the
demo's stairwell is drawn as a floor connection labelled with its kind, a device marker has moved between two
samples a few seconds apart (the live stream is read with the key in a header; the key leaves the address bar
once the page has it), nodes marked from their health (online, or greyed out when silent or offline), a device's label shows its held room (the `room` the server sends with the
device list and live fixes), and the status line says the stream is live and where the demo venue's positioning
stands with its survey (learning it in the background, or tracking over its radio map). Stops the server by its
pid at the end.

    scripts/ci/map-test.py [--binary Server/.build/debug/indoor] [--timeout 45] [--screenshot FILE]

Exit status 0 on success; 1 with a message saying what did not happen on failure; 2 when a tool is missing.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time


def fail(message, code=1):
    print(f"map-test: FAILED: {message}", file=sys.stderr)
    sys.exit(code)


def start_server(binary, log_folder):
    """Starts the demo server; returns (process, map URL) once it has printed its address."""
    errors = open(os.path.join(log_folder, "server.err"), "w")
    process = subprocess.Popen(
        [binary, "serve", "--demo", "--port", "0", "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=errors, text=True)
    found = {}

    def read():
        for line in process.stdout:
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
    return process, found["url"]


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


def run(driver, url, timeout, screenshot):
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
            if screenshot:
                driver.save_screenshot(screenshot)
            return
        time.sleep(0.5)
    problem(driver, screenshot)
    fail(f"the status line did not say the stream is live with the demo survey's state within {timeout} s: '{status}'")


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
    parser.add_argument("--timeout", type=float, default=45, help="seconds for the whole browser check")
    parser.add_argument("--screenshot", help="save a PNG of the page at the end (and on failure)")
    arguments = parser.parse_args()
    if not os.access(arguments.binary, os.X_OK):
        fail(f"'{arguments.binary}' is not an executable: swift build --package-path Server --product indoor", 2)
    try:
        import selenium  # noqa: F401
    except ImportError:
        fail("selenium is not installed (pip install selenium)", 2)

    folder = tempfile.mkdtemp(prefix="indoor-map-test-")
    process, url = start_server(arguments.binary, folder)
    print(f"map-test: server pid {process.pid}, map {re.sub(r'key=[^&]+', 'key=…', url)}")
    driver = None
    try:
        driver = browser(os.path.join(folder, "profile"))
        run(driver, url, arguments.timeout, arguments.screenshot)
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
