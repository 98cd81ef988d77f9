#!/usr/bin/env python3
"""`indoor serve --home-assistant` against a real Home Assistant core (issue 52 item 4), on a real mosquitto.

Starts mosquitto on a free loopback port and Home Assistant (`hass` from `--hass`, a virtualenv holding the release
given to .ci/run, 2024.3.3) with its MQTT integration on that broker (a config entry written into `.storage`, as the
integration's setup would; discovery on) and a `person` Anna following `device_tracker.anna`. Then starts
`indoor serve --mqtt … --home-assistant --home-assistant-device '*'` (a temporary database and keys of its own), puts a
two-room venue with the person Anna (her phone and her watch) and posts the sightings of Anna's two devices and of a
tag `tab.1` walking into the east room. Home Assistant keeps what it made in its `.storage` files, which this test
reads (no access token is needed): the entity registry as soon as it is written, and the entities' states once Home
Assistant has stopped (its restore-state file):

1. Discovery: Home Assistant made, with the unique ids Indoor gave, `device_tracker.anna` and `sensor.anna_room`
   (the person, named once), `device_tracker.anna_phone`, `device_tracker.anna_watch`, `device_tracker.tab_1` (an id
   with a dot), their room sensors, `binary_sensor.tiny_east_room` (device class occupancy) and
   `sensor.tiny_east_room_count`; stopped, `person.anna` is `home` (Home Assistant's person follows the tracker),
   `sensor.anna_room` is `East room`, the room is `on` and its count is 2 (Anna once, the tag once).
2. Not home: Home Assistant started again; both of Anna's devices erased (`DELETE /v1/devices/{device}`): stopped,
   `person.anna` is `not_home`.
3. Gone: started again; Anna taken out of the venue (`DELETE /v1/venues/tiny/persons/anna`): her tracker and room
   sensor leave Home Assistant's entity registry.

    scripts/ci/home-assistant-test.py --hass /path/to/venv/bin/hass [--binary Server/.build/debug/indoor]

Exit status 0 on success; 1 with a message saying what did not happen; 2 when a tool is missing.
"""

import argparse
import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
# The server is started as the survey test starts it (selenium is imported there only when a browser is driven).
_spec = importlib.util.spec_from_file_location("survey_test", os.path.join(HERE, "survey-test.py"))
survey_test = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(survey_test)

VENUE = {
    "id": "tiny", "name": "Tiny", "anchor": {"latitude": 52.5, "longitude": 13.4},
    "floors": [{"level": 0, "outline": [[-5, -10], [25, -10], [25, 10], [-5, 10]]}],
    "nodes": [{"id": "n1", "x": 0, "y": 0}, {"id": "n2", "x": 20, "y": 0}],
    "zones": [{"id": "east", "name": "East room", "checkOutTime": 2,
               "fences": [{"polygon": [[15, -5], [25, -5], [25, 5], [15, 5]]}]}],
    "persons": [{"id": "anna", "name": "Anna", "devices": ["anna-phone", "anna-watch"]}],
}


def say(message):
    print(f"home-assistant-test: {message}", flush=True)


def fail(message, status=1):
    print(f"home-assistant-test: FAILED: {message}", file=sys.stderr, flush=True)
    sys.exit(status)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop(process, signal_number=signal.SIGTERM, seconds=60):
    if process and process.poll() is None:
        process.send_signal(signal_number)
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class HomeAssistant:
    """One Home Assistant core over the config folder `folder`, started and stopped in turn."""

    def __init__(self, hass, folder, port):
        self.hass, self.folder, self.port = hass, folder, port
        self.process = None
        os.makedirs(os.path.join(folder, ".storage"), exist_ok=True)
        with open(os.path.join(folder, "configuration.yaml"), "w") as config:
            config.write("homeassistant:\n  name: Indoor test\n  latitude: 52.5\n  longitude: 13.4\n"
                         "  elevation: 0\n  unit_system: metric\n  time_zone: UTC\n"
                         "person:\n  - name: Anna\n    id: anna\n    device_trackers:\n      - device_tracker.anna\n"
                         "logger:\n  default: warning\n  logs:\n    homeassistant.components.mqtt: info\n")
        entry = {"entry_id": "0123456789abcdef0123456789abcdef", "version": 1, "minor_version": 1, "domain": "mqtt",
                 "title": "mosquitto", "data": {"broker": "127.0.0.1", "port": port, "discovery": True,
                                               "discovery_prefix": "homeassistant"},
                 "options": {}, "pref_disable_new_entities": False, "pref_disable_polling": False, "source": "user",
                 "unique_id": None, "disabled_by": None}
        with open(os.path.join(folder, ".storage", "core.config_entries"), "w") as entries:
            json.dump({"version": 1, "minor_version": 1, "key": "core.config_entries",
                       "data": {"entries": [entry]}}, entries)

    def start(self, round_number, seconds=240):
        log = os.path.join(self.folder, f"hass-{round_number}.log")
        self.log = log
        self.process = subprocess.Popen([self.hass, "-c", self.folder, "--skip-pip"], stdout=open(log, "w"),
                                        stderr=subprocess.STDOUT)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with open(log) as text:
                content = text.read()
            if "Connected to MQTT server" in content:
                # Subscribed to discovery right after.
                time.sleep(3)
                return
            if self.process.poll() is not None:
                fail(f"Home Assistant ended (status {self.process.returncode}); its log:\n{content[-3000:]}")
            time.sleep(0.5)
        fail(f"Home Assistant did not connect to the broker within {seconds} s; its log:\n{content[-3000:]}")

    def stop(self):
        """Stops it as a user would (SIGINT): it writes its registries and the entities' states to `.storage`."""
        stop(self.process, signal.SIGINT, 120)
        if self.process.returncode not in (0, -2):
            say(f"Home Assistant ended with status {self.process.returncode}")

    def storage(self, name):
        path = os.path.join(self.folder, ".storage", name)
        if not os.path.exists(path):
            return None
        with open(path) as text:
            return json.load(text)["data"]

    def entities(self):
        registry = self.storage("core.entity_registry")
        return {e["entity_id"]: e for e in (registry or {}).get("entities", [])}

    def states(self):
        return {s["state"]["entity_id"]: s["state"] for s in (self.storage("core.restore_state") or [])}

    def errors(self):
        with open(self.log) as text:
            return [line.strip() for line in text if " ERROR " in line and "mqtt" in line.lower()]


def call(base, key, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method, headers={
        "Authorization": "Bearer " + key, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status


def until(what, condition, seconds=90):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(1)
    fail(f"{what} within {seconds} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="Server/.build/debug/indoor")
    parser.add_argument("--hass", required=True, help="Home Assistant's hass executable")
    options = parser.parse_args()
    for tool in (options.binary, options.hass):
        if not os.access(tool, os.X_OK):
            fail(f"{tool} is not an executable", 2)
    if not shutil.which("mosquitto"):
        fail("mosquitto is not installed", 2)
    folder = tempfile.mkdtemp(prefix="indoor-ha-test-")
    port = free_port()
    broker = subprocess.Popen(["mosquitto", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    home = HomeAssistant(options.hass, os.path.join(folder, "ha"), port)
    server = None
    try:
        home.start(1)
        say(f"Home Assistant connected to mosquitto on port {port}")
        server, base, keys = survey_test.start_server(
            options.binary, folder,
            ("--mqtt", f"mqtt://127.0.0.1:{port}", "--home-assistant", "--home-assistant-device", "*"))
        if call(base, keys["admin"], "PUT", "/v1/venues/tiny", VENUE) != 201:
            fail("the venue was not created")
        now = time.time()
        steps = [(0, "n1"), (1, "n1")] + [(k, "n2") for k in range(10, 17)]
        sightings = sorted(({"t": round(now - 20 + t, 3), "device": device, "node": node, "rssi": -59}
                            for device in ("anna-phone", "anna-watch", "tab.1") for t, node in steps),
                           key=lambda s: s["t"])
        if call(base, keys["ingest"], "POST", "/v1/sightings", {"venue": "tiny", "sightings": sightings}) != 200:
            fail("the sightings were not taken")
        wanted = {
            "device_tracker.anna": "indoor_tiny__person__anna", "sensor.anna_room": "indoor_tiny__person__anna_room",
            "device_tracker.anna_phone": "indoor_tiny__anna-phone", "device_tracker.anna_watch": "indoor_tiny__anna-watch",
            "device_tracker.tab_1": "indoor_tiny__tab_2E1", "sensor.tab_1_room": "indoor_tiny__tab_2E1_room",
            "binary_sensor.tiny_east_room": "indoor_tiny__zone__east_occupancy",
            "sensor.tiny_east_room_count": "indoor_tiny__zone__east_count",
        }
        entities = until("Home Assistant's entity registry holds every entity Indoor announced",
                         lambda: (lambda e: e if all(k in e for k in wanted) else None)(home.entities()), 120)
        for entity_id, unique_id in wanted.items():
            entity = entities[entity_id]
            if entity.get("platform") != "mqtt" or entity.get("unique_id") != unique_id:
                fail(f"{entity_id}: platform {entity.get('platform')}, unique id {entity.get('unique_id')}, "
                     f"expected mqtt and {unique_id}")
        if entities["binary_sensor.tiny_east_room"].get("original_device_class") != "occupancy":
            fail(f"the room's binary sensor has device class {entities['binary_sensor.tiny_east_room']}")
        repeated = [e for e in entities if re.search(r"\.(\w+)_\1$", e)]
        if repeated:
            fail(f"entity ids repeat their device's name: {repeated}")
        say(f"discovery: {len(wanted)} entities made with Indoor's unique ids, none named twice")
        time.sleep(3)
        home.stop()
        states = home.states()
        expected = {"person.anna": "home", "sensor.anna_room": "East room", "binary_sensor.tiny_east_room": "on",
                    "sensor.tiny_east_room_count": "2"}
        got = {entity: states.get(entity, {}).get("state") for entity in expected}
        if got != expected:
            fail(f"Home Assistant's states {got}, expected {expected}; its MQTT errors: {home.errors()[:5]}")
        say(f"states: {got} (Anna counted once beside the tag; her person follows her tracker)")

        home.start(2)
        for device in ("anna-phone", "anna-watch"):
            if call(base, keys["admin"], "DELETE", f"/v1/devices/{device}?venue=tiny") not in (200, 204):
                fail(f"{device} was not erased")
        time.sleep(8)
        home.stop()
        person = home.states().get("person.anna", {}).get("state")
        if person != "not_home":
            fail(f"with none of her devices held, person.anna is {person}, expected not_home")
        say("both of Anna's devices erased: person.anna is not_home")

        home.start(3)
        if call(base, keys["admin"], "DELETE", "/v1/venues/tiny/persons/anna") != 204:
            fail("Anna was not taken out of the venue")
        until("Anna's tracker and room sensor leave Home Assistant's registry",
              lambda: not ({"device_tracker.anna", "sensor.anna_room"} & set(home.entities())), 120)
        home.stop()
        say("Anna taken out: her tracker and room sensor are gone from Home Assistant")
        say("passed")
    finally:
        stop(server)
        if home.process:
            stop(home.process, signal.SIGINT, 60)
        stop(broker)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
