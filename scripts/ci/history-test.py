#!/usr/bin/env python3
"""Real-browser test of looking back on the live map of `indoor serve` (docs/ANALYTICS.md): the time scrubber, the
heatmap and the zone report panel, each checked against the routes behind them.

Simulates a small office with `indoor simulate` (three walkers for five minutes), starts `indoor serve --port 0` (a
temporary database of its own, keys of the test's making), puts the office as a venue and posts the walkers'
sightings with past timestamps (the stretch ends two minutes before now; a Unix-time venue takes sightings up to
`--max-lateness`, an hour, old), so the store holds five minutes of history. Opens the map on it in headless Chromium
(selenium, as scripts/ci/map-test.py does) at 1400 × 900, opens History from the header and picks "last hour".

- Playback: plays at 60× for a while and pauses (the scrubber moved on), then seeks with the scrubber to three times
  and steps once; at each, every device drawn must be where `GET …/history?at=T&window=60` says it was at the
  scrubber's time T (its marker's pixel centre, turned back into metres through the map's own transform, within
  3 cm), no device missing or extra, moving devices drawn with a tail, and the activity list must be the visits of
  `GET /v1/activity?from=T-900&to=T` as they stood at T, the rooms shaded and labelled with who was inside then.
- Heatmap: ticks Heatmap; the cells drawn must count, per cell of the size the page says, exactly the fixes of the
  period's history pages on the floor (computed here from `GET …/history?from=&to=`): the hottest cell drawn is
  a hottest cell of the data, with its count, and the counts add up to the number of fixes.
- Report (once the walkers' last visits have closed as lost, a minute after the post): opens Report; every number of its table equals the route's JSON (`GET …/reports/zones?from=&to=&bucket=hour`),
  each zone has its two charts with a bar per bucket carrying the route's values, the busiest hours are the hours
  with the most people in the zones on average (summed over zones, from the same JSON), and the CSV link's file is
  the route's `Accept: text/csv` answer byte for byte.
- At 820 × 1180 (a tablet) the bar's controls and the report panel are wholly on screen and not covered.
- Live returns to live: the live markers and the live activity list are back, the playback layer gone. Then the
  page's Content-Security-Policy held (no violation in the console).

Screenshots of playback, the heatmap and the report go to `--screenshots DIR` (docs/ANALYTICS.md shows them).

    scripts/ci/history-test.py [--binary Server/.build/debug/indoor] [--timeout 300] [--screenshots DIR]

Exit status 0 on success; 1 with a message saying what did not happen on failure; 2 when a tool is missing.
"""

import argparse
import csv
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


map_test = load("map_test", "map-test.py")
survey_test = load("survey_test", "survey-test.py")

SEED = 7
VENUE = "history-test"
HOLD = 60          # history-plan.js's HOLD_SECONDS: the ?at= window playback draws with
TOLERANCE = 0.03   # metres between a marker drawn and the route's position
ROOMS = []         # the venue's zones, as put


def fail(message, code=1):
    print(f"history-test: FAILED: {message}", file=sys.stderr)
    sys.exit(code)


def say(message):
    print(f"history-test: {message}", flush=True)


def get(base, key, path, accept=None):
    headers = {"Authorization": "Bearer " + key}
    if accept:
        headers["Accept"] = accept
    request = urllib.request.Request(base + path, headers=headers)
    with urllib.request.urlopen(request, timeout=60) as answer:
        return answer.read().decode()


def history_fixes(base, key, start, end):
    """Every fix of the venue's history pages in start ..< end (the venue has one floor: its fixes carry none)."""
    fixes = []
    href = f"/v1/venues/{VENUE}/history?from={start}&to={end}&limit=10000"
    while href:
        page = get(base, key, href)
        href = None
        for line in page.splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            if item.get("kind") == "next":
                href = item["href"]
            else:
                fixes.append(item)
    return fixes


def feed_history(base, keys, office):
    """Posts the simulated walkers' sightings so that the stretch ends 120 s before now; (first, last) data times."""
    with open(os.path.join(office, "test", "sightings.csv"), newline="") as file:
        rows = sorted(csv.DictReader(file), key=lambda r: float(r["t"]))
    offset = time.time() - 120 - float(rows[-1]["t"])
    sightings = [{"t": round(float(r["t"]) + offset, 3), "device": r["device"], "node": r["node"],
                  "rssi": float(r["rssi"])} for r in rows]
    for i in range(0, len(sightings), 2000):
        status, answer = survey_test.call(base, keys["ingest"], "POST", "/v1/sightings",
                                          {"venue": VENUE, "sightings": sightings[i:i + 2000]})
        if status != 200 or answer.get("rejected"):
            fail(f"POST /v1/sightings answered {status}: {str(answer)[:400]}")
    return sightings[0]["t"], sightings[-1]["t"]


def wait(driver, script, what, deadline, *arguments):
    while time.monotonic() < deadline:
        value = driver.execute_script(script, *arguments)
        if value:
            return value
        time.sleep(0.2)
    map_test.problem(driver, None)
    fail(what() if callable(what) else what)


DRAWN = """
const t = window.indoorMap.transform();
const layer = document.getElementById("history-layer");
if (!layer) return null;
return {
  at: Number(layer.dataset.at), ready: layer.dataset.ready === "true",
  devices: Array.from(layer.querySelectorAll(".history-device"), (g) => {
    const c = g.querySelector("circle");
    return { device: g.dataset.device, x: Number(g.dataset.x), y: Number(g.dataset.y),
             px: (Number(c.getAttribute("cx")) - t.x) / t.scale, py: (t.y - Number(c.getAttribute("cy"))) / t.scale };
  }),
  tails: Array.from(layer.querySelectorAll(".history-tail"), (p) => p.dataset.device),
  feed: Array.from(document.querySelectorAll("#history-feed li"), (li) => [li.className, li.dataset.device]),
  feedShown: !document.getElementById("history-feed").hidden && document.getElementById("feed").hidden,
  feedAt: Number(document.getElementById("history-feed").dataset.at),
  zones: Object.fromEntries(Array.from(document.querySelectorAll("#plan .zone"), (z) => [z.dataset.zone,
    Number(z.dataset.historyCount || 0)])),
  labels: Array.from(document.querySelectorAll("#labels text.label:not(.off)"), (t) => t.textContent),
};
"""


def drawn_at(driver, deadline, t):
    """What the playback layer draws once it is drawn, with every fix read, for scrubber time `t` (then two frames
    later, so that the room labels are laid out with their counts too)."""
    wait(driver, "const d = (" + "() => {" + DRAWN + "}" + ")();"
                " return d && d.ready && Math.abs(d.at - arguments[0]) < 1e-6 && Math.abs(d.feedAt - arguments[0]) < 1e-6 && d;",
                lambda: f"playback never drew time {t} with its fixes read: "
                        f"{driver.execute_script('return window.indoorHistory.state();')}", deadline, t)
    return driver.execute_async_script("const done = arguments[arguments.length - 1];"
                                       " requestAnimationFrame(() => requestAnimationFrame(() => done((() => {"
                                       + DRAWN + "})())));")


def activity_at(visits, t):
    """history-plan.js's activityAt, independently: the visits as they stood at t, newest first."""
    lines = []
    for v in visits:
        if not v["checkIn"] <= t:
            continue
        out = v.get("checkOut")
        if out is not None and out <= t:
            lines.append(("crossing" if v.get("reason") == "crossing" else "checkOut", v["device"], out))
        else:
            lines.append(("checkIn", v["device"], v["checkIn"]))
    lines.sort(key=lambda line: (-line[2], line[1]))
    return [[kind, device] for kind, device, _ in lines]


def check_playback_at(driver, base, keys, deadline, t, what):
    """The markers drawn at scrubber time t are where GET …/history?at=t says, and the activity list is as at t."""
    drawn = drawn_at(driver, deadline, t)
    answer = json.loads(get(base, keys["read"], f"/v1/venues/{VENUE}/history?at={t!r}&window={HOLD}"))
    expected = {f["device"]: f for f in answer["fixes"]}
    shown = {d["device"]: d for d in drawn["devices"]}
    if set(shown) != set(expected):
        fail(f"{what}: at {t} the map draws {sorted(shown)}, the route says {sorted(expected)}")
    worst = 0.0
    for device, fix in expected.items():
        d = shown[device]
        error = max(math.hypot(d["px"] - fix["x"], d["py"] - fix["y"]), math.hypot(d["x"] - fix["x"], d["y"] - fix["y"]))
        worst = max(worst, error)
        if error > TOLERANCE:
            fail(f"{what}: at {t} {device} is drawn at ({d['px']:.3f}, {d['py']:.3f}) m, the route says "
                 f"({fix['x']:.3f}, {fix['y']:.3f}) m")
    query = urllib.parse.urlencode({"venue": VENUE, "from": t - 900, "to": t + 0.001, "limit": 100})
    visits = json.loads(get(base, keys["read"], "/v1/activity?" + query))["visits"]
    wanted = activity_at(visits, t)
    if not drawn["feedShown"] or drawn["feed"] != wanted:
        fail(f"{what}: at {t} the activity list shows {drawn['feed']} (shown instead of the live one: "
             f"{drawn['feedShown']}); the visits as they stood then are {wanted}")
    inside = {}
    for v in visits:
        out = v.get("checkOut")
        if v["checkIn"] <= t and v.get("reason") != "crossing" and (out is None or out > t):
            inside[v["zone"]] = inside.get(v["zone"], 0) + 1
    shown_inside = {zone: n for zone, n in drawn["zones"].items() if n}
    if shown_inside != inside:
        fail(f"{what}: at {t} the rooms are marked as holding {shown_inside}, the visits then say {inside}")
    for zone, n in inside.items():
        name = next((z.get("name") or z["id"] for z in ROOMS if z["id"] == zone), zone)
        if not any(label.startswith(f"{n} · ") and name.startswith(label.split(" · ", 1)[1].rstrip("…")) for label in drawn["labels"]):
            fail(f"{what}: at {t} no room label counts the {n} inside {zone}: {drawn['labels']}")
    say(f"{what}: at {t:.2f} {len(expected)} devices drawn within {worst * 100:.2f} cm of GET …/history?at=, "
        f"{len(drawn['tails'])} tails, {len(wanted)} activity lines and the rooms' counts {inside} as at that time")
    return drawn


def scrub_to(driver, t):
    """Moves the scrubber (the range input) to t, as a drag of it would."""
    driver.execute_script("const s = document.getElementById('history-time'); s.value = String(arguments[0]);"
                          " s.dispatchEvent(new Event('input', {bubbles: true}));", t)


def check_heatmap(driver, base, keys, deadline, state):
    from selenium.webdriver.common.by import By
    driver.find_element(By.ID, "history-heat").click()
    cells = wait(driver, "const l = document.getElementById('heat-layer');"
                         " const legend = document.getElementById('heat-legend');"
                         " if (!l || legend.hidden) return null;"
                         " return Array.from(l.querySelectorAll('rect'), (r) => [Number(r.dataset.column),"
                         " Number(r.dataset.row), Number(r.dataset.count)]);",
                 "the heatmap and its legend were never drawn", deadline)
    size = driver.execute_script("return window.indoorHistory.state().heatCellSize;")
    fixes = history_fixes(base, keys["read"], state["from"], state["to"])
    counts = {}
    for fix in fixes:
        cell = (math.floor(fix["x"] / size), math.floor(fix["y"] / size))
        counts[cell] = counts.get(cell, 0) + 1
    hottest = max(counts.values())
    drawn = {(c, r): n for c, r, n in cells}
    top = max(cells, key=lambda c: c[2])
    if drawn != counts:
        differing = [cell for cell in set(drawn) | set(counts) if drawn.get(cell) != counts.get(cell)][:5]
        fail(f"the heatmap's cells differ from the history's fixes counted per {size} m cell at {differing}: "
             f"drawn {[drawn.get(c) for c in differing]}, counted {[counts.get(c) for c in differing]}")
    if counts.get((top[0], top[1])) != hottest or top[2] != hottest:
        fail(f"the hottest cell drawn is {top}, the data's hottest cells have {hottest} fixes")
    if sum(drawn.values()) != len(fixes):
        fail(f"the heatmap counts {sum(drawn.values())} fixes, the history has {len(fixes)}")
    legend = driver.execute_script("return document.getElementById('heat-legend').textContent;")
    if str(hottest) not in legend:
        fail(f"the legend '{legend}' does not reach the hottest cell's {hottest} fixes")
    say(f"heatmap: {len(cells)} cells of {size} m, {len(fixes)} fixes; the hottest drawn cell {top[:2]} holds "
        f"{hottest}, as the history route's fixes counted here")


def wait_settled(base, keys, deadline, posted):
    """Waits until no visit is open: the walkers' last visits close as lost a minute after their last sighting
    arrived, on the server's clock, and change the report's numbers when they do (not playback's: their check-outs
    come after every time it is checked at)."""
    while time.monotonic() < deadline:
        visits = json.loads(get(base, keys["read"], f"/v1/activity?venue={VENUE}&limit=100"))["visits"]
        if not any(v.get("checkOut") is None for v in visits):
            say(f"every visit closed, {time.monotonic() - posted:.0f} s after the post")
            return
        time.sleep(0.5)
    fail("the walkers' visits were still open at the time-out")


def check_report(driver, base, keys, deadline, state, folder):
    from selenium.webdriver.common.by import By
    driver.find_element(By.ID, "history-report").click()
    wait(driver, "return document.querySelectorAll('#report-table tbody tr').length"
                 " && document.getElementById('report-csv').href.startsWith('blob:');",
         "the report panel never drew its table and CSV link", deadline)
    path = f"/v1/venues/{VENUE}/reports/zones?from={state['from']!r}&to={state['to']!r}&bucket=hour"
    report = json.loads(get(base, keys["read"], path))
    table = driver.execute_script(
        "return Array.from(document.querySelectorAll('#report-table tbody tr'), (tr) => ({zone: tr.dataset.zone,"
        " start: Number(tr.dataset.start), cells: Object.fromEntries(Array.from(tr.cells, (td) =>"
        " [td.dataset.field, td.dataset.value === undefined ? null : td.dataset.value]))}));")
    if len(table) != len(report["rows"]):
        fail(f"the report's table has {len(table)} rows, the route {len(report['rows'])}")
    fields = ["visits", "devices", "dwellMedian", "dwell90", "meanOccupancy", "peakOccupancy"]
    for row, shown in zip(report["rows"], table):
        if shown["zone"] != row["zone"] or shown["start"] != row["start"]:
            fail(f"report row order: {shown['zone']} {shown['start']} shown where the route has {row['zone']} {row['start']}")
        for field in fields:
            value, cell = row.get(field), shown["cells"].get(field)
            if (value is None) != (cell is None) or (value is not None and float(cell) != float(value)):
                fail(f"report: {row['zone']} at {row['local']}: {field} shown {cell}, the route says {value}")
    if not any(r["visits"] for r in report["rows"]):
        fail("the simulated walk made no zone visits: the report checks would be empty")
    charts = driver.execute_script(
        "return Array.from(document.querySelectorAll('.report-zone'), (z) => ({zone: z.dataset.zone,"
        " mean: Array.from(z.querySelectorAll('.occupancy .mean'), (r) => Number(r.dataset.value)),"
        " peak: Array.from(z.querySelectorAll('.occupancy .peak'), (r) => Number(r.dataset.value)),"
        " median: Array.from(z.querySelectorAll('.dwell .median'), (r) => Number(r.dataset.value))}));")
    for chart in charts:
        rows = [r for r in report["rows"] if r["zone"] == chart["zone"]]
        if chart["mean"] != [r["meanOccupancy"] for r in rows] or chart["peak"] != [r["peakOccupancy"] for r in rows] \
                or chart["median"] != [r["dwellMedian"] for r in rows if r.get("dwell90") is not None]:
            fail(f"report: the charts of {chart['zone']} show {chart}, the route's rows {rows}")
    if sorted(c["zone"] for c in charts) != sorted({r["zone"] for r in report["rows"]}):
        fail(f"report: charts for {[c['zone'] for c in charts]}")
    hours = {}
    for row in report["rows"]:
        hour = hours.setdefault(row["start"], {"occupancy": 0.0, "visits": 0})
        hour["occupancy"] += row["meanOccupancy"]
        hour["visits"] += row["visits"]
    busiest = sorted([(start, h) for start, h in hours.items() if h["occupancy"] > 0 or h["visits"] > 0],
                     key=lambda item: (-item[1]["occupancy"], -item[1]["visits"], item[0]))[:5]
    shown = driver.execute_script("return Array.from(document.querySelectorAll('#report-busiest li[data-start]'),"
                                  " (li) => [Number(li.dataset.start), Number(li.dataset.occupancy), Number(li.dataset.visits)]);")
    if [s[0] for s in shown] != [b[0] for b in busiest] or any(
            abs(s[1] - b[1]["occupancy"]) > 1e-9 or s[2] != b[1]["visits"] for s, b in zip(shown, busiest)):
        fail(f"report: the busiest hours shown are {shown}, from the route's rows {busiest}")
    # The link downloads a file: into a folder of the test's, where it is read.
    downloads = os.path.join(folder, "downloads")
    os.makedirs(downloads, exist_ok=True)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    name = driver.execute_script("return document.getElementById('report-csv').download;")
    driver.find_element(By.ID, "report-csv").click()
    file = os.path.join(downloads, name)
    while not os.path.exists(file) and time.monotonic() < deadline:
        time.sleep(0.2)
    if not os.path.exists(file):
        fail(f"the CSV link downloaded no {name}: {os.listdir(downloads)}")
    with open(file, newline="") as downloaded:
        csv_shown = downloaded.read()
    csv_route = get(base, keys["read"], path, accept="text/csv")
    if csv_shown != csv_route:
        fail(f"report: the CSV link's file differs from the route's CSV: {csv_shown[:200]!r} … {csv_route[:200]!r}")
    say(f"report: {len(table)} rows ({len(charts)} zones) equal the route's JSON, {len(shown)} busiest hours, the CSV "
        f"link is the route's CSV ({len(csv_route)} bytes)")


def check_tablet(driver, deadline):
    """At 820 × 1180 the bar's controls and the report panel are wholly on screen and each control is the element at
    its own centre."""
    map_test.viewport(driver, 820, 1180, True)
    boxes = driver.execute_script("""
      const w = innerWidth, h = innerHeight;
      const ids = ["history-from", "history-to", "history-last", "history-heat", "history-report", "history-close",
                   "history-back", "history-play", "history-forward", "history-speed", "history-time", "report",
                   "report-csv", "report-close", "history"];
      return ids.map((id) => { const e = document.getElementById(id); const b = e.getBoundingClientRect();
        const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
        return {id, l: b.left, t: b.top, r: b.right, b: b.bottom, w, h,
                hit: id === "report" || !!hit && (hit === e || e.contains(hit) || hit.contains(e))}; });""")
    for b in boxes:
        if b["l"] < 0 or b["t"] < 0 or b["r"] > b["w"] + 0.5 or b["b"] > b["h"] + 0.5 or not b["hit"] or b["r"] <= b["l"]:
            map_test.problem(driver, None)
            fail(f"820 × 1180: #{b['id']} is cut off or covered: {b}")
    say(f"820 × 1180: the bar's {len(boxes) - 2} controls and the report panel wholly on screen and uncovered")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="Server/.build/debug/indoor")
    parser.add_argument("--timeout", type=float, default=300, help="seconds for the whole browser check")
    parser.add_argument("--screenshots", help="a folder for screenshots of playback, the heatmap and the report")
    arguments = parser.parse_args()
    if not os.access(arguments.binary, os.X_OK):
        fail(f"'{arguments.binary}' is not an executable: swift build --package-path Server --product indoor", 2)
    try:
        import selenium  # noqa: F401
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select
    except ImportError:
        fail("selenium is not installed (pip install selenium)", 2)
    if arguments.screenshots:
        os.makedirs(arguments.screenshots, exist_ok=True)

    folder = tempfile.mkdtemp(prefix="indoor-history-test-")
    office = os.path.join(folder, "office")
    simulated = subprocess.run([arguments.binary, "simulate", "-o", office, "--rooms", "3", "--devices", "3",
                                "--duration", "300", "--seed", str(SEED)], capture_output=True, text=True)
    if simulated.returncode != 0:
        fail(f"indoor simulate failed: {simulated.stderr.strip()}")
    with open(os.path.join(office, "venue.json")) as file:
        venue = json.load(file)
    venue["id"] = VENUE
    ROOMS.extend(venue.get("zones", []))
    process, base, keys = survey_test.start_server(arguments.binary, folder)
    url = base + "/?venue=" + VENUE + "#key=" + keys["read"]
    driver = None
    deadline = time.monotonic() + arguments.timeout
    shot = (lambda name: driver.save_screenshot(os.path.join(arguments.screenshots, name))) if arguments.screenshots \
        else (lambda name: None)
    try:
        status, answer = survey_test.call(base, keys["admin"], "PUT", f"/v1/venues/{VENUE}", venue)
        if status not in (200, 201):
            fail(f"PUT of the venue answered {status}: {answer}")
        first, last = feed_history(base, keys, office)
        say(f"posted {last - first:.0f} s of three walkers' sightings, ending {time.time() - last:.0f} s ago")
        posted = time.monotonic()
        driver = map_test.browser(os.path.join(folder, "profile"))
        map_test.viewport(driver, 1400, 900, False)
        driver.get(url)
        wait(driver, "return document.querySelectorAll('#map .outline').length && window.indoorHistory;",
             "the venue's plan did not draw", deadline)

        # Playback over the last hour: plays at 60×, pauses where it got to.
        driver.find_element(By.ID, "history").click()
        wait(driver, "return window.indoorHistory.state().open;", "History did not open", deadline)
        # The plan fits again above the bar laid over the map's bottom, not under it.
        below = wait(driver, "const o = document.querySelector('#map .outline').getBoundingClientRect();"
                     " const b = document.getElementById('history-bar').getBoundingClientRect();"
                     " const m = document.getElementById('map').getBoundingClientRect();"
                     " return b.height > 0 && o.bottom <= b.top + 1 && o.top >= m.top - 1 && [o.top, o.bottom, b.top];",
                     "the plan, fitted with History open, is drawn under the History bar", deadline)
        say(f"with History open the plan is fitted above the bar (plan {below[0]:.0f}–{below[1]:.0f} px, bar from {below[2]:.0f} px)")
        Select(driver.find_element(By.ID, "history-last")).select_by_value("3600")
        state = wait(driver, "const s = window.indoorHistory.state(); return s.to - s.from === 3600 && s;",
                     "picking 'last hour' set no period", deadline)
        if not (state["from"] <= first and last < state["to"]):
            fail(f"the period {state['from']} … {state['to']} does not hold the stretch {first} … {last}")
        scrub_to(driver, math.floor(first) + 20)
        Select(driver.find_element(By.ID, "history-speed")).select_by_value("60")
        driver.find_element(By.ID, "history-play").click()
        time.sleep(3)
        driver.find_element(By.ID, "history-play").click()
        played = driver.execute_script("return window.indoorHistory.state();")
        if played["playing"] or not played["t"] > math.floor(first) + 20 + 30:
            fail(f"3 s of play at 60× did not move the scrubber on by more than 30 s: {played}")
        check_playback_at(driver, base, keys, deadline, played["t"], "paused after playing at 60×")
        for offset in (75, 150, 230):
            t = math.floor(first) + offset
            scrub_to(driver, t)
            drawn = check_playback_at(driver, base, keys, deadline, float(t), f"scrubbed to +{offset} s")
            if offset == 150:
                if not drawn["tails"]:
                    fail("no device is drawn with a tail while the walkers move")
                shot("analytics-playback.png")
        driver.find_element(By.ID, "history-forward").click()   # a step at 60× is 60 s
        check_playback_at(driver, base, keys, deadline, float(math.floor(first) + 290), "stepped forward")

        # The heatmap of the period, then the report.
        check_heatmap(driver, base, keys, deadline, state)
        shot("analytics-heatmap.png")
        wait_settled(base, keys, deadline, posted)
        check_report(driver, base, keys, deadline, state, folder)
        shot("analytics-report.png")
        check_tablet(driver, deadline)
        shot("analytics-tablet.png")
        map_test.viewport(driver, 1400, 900, False)

        # Live again.
        driver.find_element(By.ID, "history-close").click()
        back = wait(driver, "return !document.body.classList.contains('history') && !document.getElementById('history-layer')"
                            " && !document.getElementById('heat-layer') && getComputedStyle(document.getElementById('devices')).display !== 'none'"
                            " && !document.getElementById('feed').hidden && document.getElementById('history-feed').hidden"
                            " && document.getElementById('report').hidden && {devices: document.querySelectorAll('#devices .device').length};",
                    "Live did not return to the live map", deadline)
        say(f"Live: back to the live map ({back['devices']} live markers), the playback and heatmap layers gone")
        map_test.check_protections(driver, url, None)
    except SystemExit:
        raise
    except Exception as error:  # selenium's errors (no browser, a crash, a time-out) as one clear line
        if driver is not None:
            map_test.problem(driver, None)
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        fail(f"the browser failed: {error.__class__.__name__}: {first_line}")
    finally:
        if driver is not None:
            driver.quit()
        map_test.stop_server(process)
        shutil.rmtree(folder, ignore_errors=True)
    say("passed")


if __name__ == "__main__":
    main()
