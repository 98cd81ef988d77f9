#!/usr/bin/env python3
"""Real-browser test of survey mode on the live map of `indoor serve`: a site survey recorded through the map's UI.

Simulates a small office with `indoor simulate` (its `train/` is a survey walk with truth, its `test/` two walkers),
starts `indoor serve --port 0` (a temporary database of its own, keys of the test's making; not the demo, whose own
survey would be learned first) and puts the simulated office as a venue.
Opens the map on it in headless Chromium (selenium, as scripts/ci/map-test.py does), at phone size (390 × 844,
touch emulated), opens survey mode from the header ("Survey"), gives the admin key in the bar's own form, types the
carried device's id and presses Record. Then it walks the survey in real time: the walk's sightings are posted with
`POST /v1/sightings` (the ingest key) on the server's clock as they happen, and at each of the walk's turning points
(where its direction changes, and where it stops) the test taps the plan at the true position at that moment, a stop
with "Hold here" for as long as the walker stood there. It checks the marks and their path are drawn, presses Stop,
waits until the venue has learned the survey and the bar says what it bought (the median error without the survey
and with it; for a walk that passes near too few of the venue's nodes, as this small office's does, also how many it
covers, as `GET …/survey` says) and the coverage layer is drawn. Last, the survey exported by the server (`GET
…/survey/export`) is scored with `indoor evaluate` on the simulated `test/`, beside the simulated `train/` given as
CSV files: the recorded survey's median must be within 10% of the files'. Screenshots of the bar while recording and of the
coverage after are saved with `--screenshots` (docs/SURVEY.md shows them).

    scripts/ci/survey-test.py [--binary Server/.build/debug/indoor] [--timeout 600] [--screenshots DIR]

Exit status 0 on success; 1 with a message saying what did not happen on failure; 2 when a tool is missing.
"""

import argparse
import csv
import importlib.util
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("map_test", os.path.join(HERE, "map-test.py"))
map_test = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(map_test)

SEED = 11
DEVICE = "survey"   # the simulated survey walker's device id in train/


def fail(message, code=1):
    print(f"survey-test: FAILED: {message}", file=sys.stderr)
    sys.exit(code)


def say(message):
    print(f"survey-test: {message}", flush=True)


def start_server(binary, folder, options=()):
    """Starts `indoor serve` on a free port with a database in `folder`, keys of its own and any further `options`
    (arguments of `indoor serve`); returns (process, base address, keys by kind) once it says where it listens."""
    import secrets
    import threading
    keys = {kind: secrets.token_hex(16) for kind in ("admin", "ingest", "read")}
    errors = open(os.path.join(folder, "server.err"), "w")
    process = subprocess.Popen(
        [binary, "serve", "--port", "0", "--database", os.path.join(folder, "indoor.sqlite"), "--log-level", "warning",
         *options, "--admin-key", keys["admin"], "--ingest-key", keys["ingest"], "--read-key", keys["read"]],
        stdout=subprocess.PIPE, stderr=errors, text=True)
    found = {}

    def read():
        for line in process.stdout:
            match = re.search(r"listening on (http://\S+)", line)
            if match and "base" not in found:
                found["base"] = match.group(1)
        # keeps draining so the server never blocks on a full pipe

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + 60
    while "base" not in found and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.1)
    if "base" not in found:
        map_test.stop_server(process)
        with open(os.path.join(folder, "server.err")) as log:
            fail(f"the server said no address within 60 s; its stderr:\n{log.read()[-2000:]}")
    return process, found["base"], keys


def call(base, key, method, path, body=None, raw=False):
    """(status, answer): the JSON answer, or the bytes with `raw`."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers={
        "Authorization": "Bearer " + key, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            content = answer.read()
            return answer.status, content if raw else json.loads(content or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def rows(path):
    with open(path, newline="") as file:
        return list(csv.DictReader(file))


def turning_points(truth):
    """The walk's vertices from its truth rows (t, x, y): where it starts, where its heading turns by more than 20°,
    and its stops, each a (t, x, y, hold) with `hold` the seconds it stood there (0 when walking on)."""
    points = [(float(r["t"]), float(r["x"]), float(r["y"])) for r in truth]
    marks = []
    i = 0
    while i < len(points):
        t, x, y = points[i]
        j = i
        while j + 1 < len(points) and math.hypot(points[j + 1][1] - x, points[j + 1][2] - y) < 0.05:
            j += 1
        hold = points[j][0] - t
        if i == 0 or j == len(points) - 1 or hold > 0:
            marks.append((t, x, y, hold))
        elif 0 < i < len(points) - 1:
            before, after = points[i - 1], points[i + 1]
            heading_in = math.atan2(y - before[2], x - before[1])
            heading_out = math.atan2(after[2] - y, after[1] - x)
            turn = abs((heading_out - heading_in + math.pi) % (2 * math.pi) - math.pi)
            if turn > math.radians(20):
                marks.append((t, x, y, 0))
        i = j + 1
    return marks


def wait(driver, script, what, deadline, screenshot=None):
    while time.monotonic() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.25)
    map_test.problem(driver, screenshot)
    fail(what() if callable(what) else what)


def tap_at(driver, x, y):
    """A tap (a touch press and release) at the venue point (x, y) metres, through the map's own transform."""
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    from selenium.webdriver.common.actions import interaction
    px, py = driver.execute_script("return window.indoorMap.toScreen(arguments[0], arguments[1]);", x, y)
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    builder = ActionBuilder(driver, mouse=finger)
    builder.pointer_action.move_to_location(int(round(px)), int(round(py)))
    builder.pointer_action.pointer_down()
    builder.pointer_action.pause(0.05)
    builder.pointer_action.pointer_up()
    builder.perform()


def evaluate(binary, folder):
    """`indoor evaluate FOLDER --method auto --json`, learning from the survey whatever it covers (this office's walk
    passes near 8 of its 14 nodes, and `auto` would otherwise set it aside): the median error, metres."""
    result = subprocess.run([binary, "evaluate", folder, "--method", "auto", "--tuning", "survey-coverage=0", "--json"],
                            capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        fail(f"indoor evaluate {folder} failed: {result.stderr.strip()[-800:]}")
    report = json.loads(result.stdout)
    for method in report if isinstance(report, list) else [report]:
        if isinstance(method, dict) and isinstance(method.get("median_m"), (int, float)):
            return float(method["median_m"])
    fail(f"indoor evaluate {folder} gave no median: {result.stdout[:400]}")


def record(driver, base, keys, folder, venue, deadline, screenshots):
    from selenium.webdriver.common.by import By
    truth = rows(os.path.join(folder, "train", "truth.csv"))
    sightings = rows(os.path.join(folder, "train", "sightings.csv"))
    marks = turning_points(truth)
    say(f"the walk: {len(truth)} truth rows, {len(sightings)} sightings, {len(marks)} turning points and stops")

    driver.find_element(By.ID, "survey").click()
    wait(driver, "return !document.getElementById('survey-key').hidden;", "survey mode did not ask for the admin key",
         deadline)
    driver.find_element(By.ID, "survey-key-input").send_keys(keys["admin"] + "\n")
    wait(driver, "return document.getElementById('survey-key').hidden;", "survey mode did not take the admin key",
         deadline)
    device = driver.find_element(By.ID, "survey-device")
    device.clear()
    device.send_keys(DEVICE)
    driver.find_element(By.ID, "survey-record").click()
    wait(driver, "return window.indoorSurvey.recording();", "Record started no recording", deadline)

    start = float(truth[0]["t"])
    offset = time.time() + 1.0 - start   # data time + offset = Unix time on the server's clock
    pending = sorted(sightings, key=lambda r: float(r["t"]))
    next_sighting = 0
    taken = 0
    last_shot = None
    for t, x, y, hold in marks:
        # Post every sighting up to the mark's moment, as it happens.
        while True:
            now = time.time() - offset
            batch = []
            while next_sighting < len(pending) and float(pending[next_sighting]["t"]) <= min(now, t):
                r = pending[next_sighting]
                batch.append({"t": round(float(r["t"]) + offset, 3), "device": DEVICE, "node": r["node"],
                              "rssi": float(r["rssi"])})
                next_sighting += 1
            if batch:
                status, answer = call(base, keys["ingest"], "POST", "/v1/sightings",
                                      {"venue": venue, "sightings": batch})
                if status != 200 or answer.get("rejected"):
                    fail(f"POST /v1/sightings answered {status}: {str(answer)[:400]}")
            if now >= t:
                break
            time.sleep(min(0.2, t - now))
        if hold > 0:
            field = driver.find_element(By.ID, "survey-hold-seconds")
            field.clear()
            field.send_keys(str(round(hold)))
            driver.find_element(By.ID, "survey-hold").click()
        tap_at(driver, x, y)
        taken += 1
        wait(driver, f"return window.indoorSurvey.marks().length >= {taken};",
             f"the tap for mark {taken} at ({x:.2f}, {y:.2f}) m made no mark: "
             + "{}".format(driver.execute_script("return document.getElementById('survey-state').textContent;")),
             deadline)
        if screenshots and taken == max(3, len(marks) // 2) and last_shot is None:
            last_shot = os.path.join(screenshots, "survey-recording.png")
            driver.save_screenshot(last_shot)
    # The rest of the walk's sightings, then Stop.
    rest = [{"t": round(float(r["t"]) + offset, 3), "device": DEVICE, "node": r["node"], "rssi": float(r["rssi"])}
            for r in pending[next_sighting:] if float(r["t"]) <= float(truth[-1]["t"])]
    if rest:
        call(base, keys["ingest"], "POST", "/v1/sightings", {"venue": venue, "sightings": rest})
    # The plan repaints on the next animation frame, which a loaded machine may delay: wait for it (bounded).
    count = ("return {marks: document.querySelectorAll('#survey-layer .survey-mark').length,"
             " path: document.querySelectorAll('#survey-layer .survey-path').length,"
             " surveyed: document.querySelectorAll('#devices .device.surveyed').length};")
    drawn = {}
    settle = time.time() + 20
    while time.time() < settle:
        drawn = driver.execute_script(count)
        if drawn["marks"] == len(marks) and drawn["path"] == 1 and drawn["surveyed"] == 1:
            break
        time.sleep(0.25)
    if drawn["marks"] != len(marks) or drawn["path"] != 1:
        fail(f"while recording the plan shows {drawn} for {len(marks)} marks")
    if drawn["surveyed"] != 1:
        fail(f"the carried device's live fix is not picked out on the plan: {drawn}")
    driver.find_element(By.ID, "survey-record").click()
    say(f"{taken} marks tapped; stopped, learning")
    bought = wait(driver, "const t = document.getElementById('survey-bought').textContent;"
                          " return (/without the survey [0-9.]+ m, with it [0-9.]+ m/.test(t) || /^Not used yet/.test(t))"
                          " && t;",
                  lambda: "the bar never said what the survey bought; it says: " + driver.execute_script(
                      "return document.getElementById('survey-bought').textContent;"), deadline)
    say(bought)
    # The bar says what the server says: learned, or set aside for the nodes it covers.
    status, state = call(base, keys["admin"], "GET", f"/v1/venues/{venue}/survey")
    coverage = (state.get("validation") or {}).get("coverage") if status == 200 else None
    if not coverage:
        fail(f"GET …/survey answered {status} without validation.coverage: {state}")
    if coverage["learned"] == bought.startswith("Not used yet"):
        fail(f"the bar says '{bought}' but the server's survey coverage is {coverage}")
    short = coverage["coveredNodes"] < coverage["minimumShare"] * coverage["nodes"]
    if short and f"{coverage['coveredNodes']} of {coverage['nodes']} nodes" not in bought:
        fail(f"the bar says '{bought}', not the {coverage['coveredNodes']} of {coverage['nodes']} nodes covered")
    coverage = wait(driver, "const n = document.querySelectorAll('#survey-layer .coverage.dense').length;"
                            " return n && {dense: n, thin: document.querySelectorAll('#survey-layer .coverage.thin').length,"
                            " missing: document.querySelectorAll('#survey-layer .coverage.missing').length};",
                    "no coverage drawn after the stop", deadline)
    say(f"coverage cells: {coverage}")
    if screenshots:
        driver.save_screenshot(os.path.join(screenshots, "survey-coverage.png"))
    return len(marks)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="Server/.build/debug/indoor")
    parser.add_argument("--timeout", type=float, default=600, help="seconds for the whole browser check")
    parser.add_argument("--screenshots", help="a folder for screenshots of survey mode")
    arguments = parser.parse_args()
    if not os.access(arguments.binary, os.X_OK):
        fail(f"'{arguments.binary}' is not an executable: swift build --package-path Server --product indoor", 2)
    try:
        import selenium  # noqa: F401
    except ImportError:
        fail("selenium is not installed (pip install selenium)", 2)
    if arguments.screenshots:
        os.makedirs(arguments.screenshots, exist_ok=True)

    folder = tempfile.mkdtemp(prefix="indoor-survey-test-")
    office = os.path.join(folder, "office")
    simulated = subprocess.run([arguments.binary, "simulate", "-o", office, "--rooms", "3", "--devices", "2",
                                "--duration", "120", "--seed", str(SEED)], capture_output=True, text=True)
    if simulated.returncode != 0:
        fail(f"indoor simulate failed: {simulated.stderr.strip()}")
    with open(os.path.join(office, "venue.json")) as file:
        venue = json.load(file)
    venue["id"] = "survey-test"
    process, base, keys = start_server(arguments.binary, folder)
    url = base + "/?venue=survey-test#key=" + keys["read"]
    driver = None
    deadline = time.monotonic() + arguments.timeout
    try:
        status, answer = call(base, keys["admin"], "PUT", "/v1/venues/survey-test", venue)
        if status not in (200, 201):
            fail(f"PUT of the venue answered {status}: {answer}")
        driver = map_test.browser(os.path.join(folder, "profile"))
        map_test.viewport(driver, 390, 844, True)
        driver.get(url)
        wait(driver, "return document.querySelectorAll('#map .outline').length && window.indoorMap;",
             "the venue's plan did not draw", deadline)
        record(driver, base, keys, office, "survey-test", deadline, arguments.screenshots)
        map_test.check_protections(driver, url, None)

        # The survey as the server learned it, scored as a dataset beside the simulated files.
        status, exported = call(base, keys["admin"], "GET", "/v1/venues/survey-test/survey/export", raw=True)
        if status != 200:
            fail(f"GET …/survey/export answered {status}: {exported}")
        recorded = os.path.join(folder, "recorded")
        os.makedirs(recorded)
        with zipfile.ZipFile(io.BytesIO(exported)) as archive:
            archive.extractall(recorded)
        shutil.copytree(os.path.join(office, "test"), os.path.join(recorded, "test"))
        shutil.copy(os.path.join(office, "venue.json"), os.path.join(recorded, "venue.json"))
        from_files = evaluate(arguments.binary, office)
        from_map = evaluate(arguments.binary, recorded)
        say(f"test/ median with the survey recorded on the map {from_map:.3f} m, with the files' survey "
            f"{from_files:.3f} m")
        if from_map > from_files * 1.10:
            fail(f"the survey recorded on the map tracks test/ at {from_map:.3f} m, more than 10% above the "
                 f"{from_files:.3f} m of the same walk given as files")
    except SystemExit:
        raise
    except Exception as error:  # selenium's errors (no browser, a crash, a time-out) as one clear line
        if driver is not None:
            map_test.problem(driver, None)
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
