#!/usr/bin/env python3
"""Check what `indoor venue import` made of an IMDF archive's doors, rooms and labels.

Usage: imdf-door-check.py ARCHIVE VENUE.json [--tolerance 0.05] [--min-gap 0.5] [--label 14] [--list N]

ARCHIVE is the IMDF archive that was imported (a .zip file or a folder, its files at the top level or in one
folder); VENUE.json is what `indoor venue import ARCHIVE -o VENUE.json` wrote. Python 3 standard library only.

It prints:
- doors: for each IMDF opening (a LineString on a level), whether a wall of the imported floor lies within
  --tolerance metres (default 0.05) of the opening's points at 30 %, 50 % and 70 % of its length: `blocked` (all
  three), `partly` (one or two), `open` (none). An opening farther than 0.1 m from every unit boundary of its level
  is counted apart (`off boundary`: the importer cuts no gap for it and says so).
- rooms without a way in: in the archive, units along whose boundary no opening at least --min-gap metres wide
  (default 0.5) lies (its points at 30, 50 and 70 % within 0.1 m of the boundary); after the import, room zones
  (`data.imdf` = `unit`) whose fence boundary has no stretch of --min-gap metres without a wall within
  --tolerance. Rooms that had a way in and lost it are listed: that is what the import broke.
- groups of rooms reachable from one another on each floor: in the archive through its openings (a unit drawn over
  another, as stairs inside a corridor, opens into the one holding the opening); the same with walkway units that
  meet without an opening joined; after the import through the gaps in the walls (--min-gap metres of one open
  stretch of a room's boundary along another room's boundary, or inside it).
- shared boundaries without an opening: unit pairs that share at least --min-gap metres of boundary where no
  opening lies, by category pair (two walkways side by side, a shop open to the mall): the import draws a wall on
  every unit boundary.
- labels: room names longer than --label characters (default 14) and the areas of their rooms, room areas (m², from
  the imported fences), and the rooms' occupants (`data.occupants`), the names a map may show instead.

Coordinates go from WGS84 to the venue's local metres through the venue JSON's anchor, as the importer does
(GeoAnchor.point(of:): the local tangent plane of the WGS84 ellipsoid at the anchor, turned by its bearing).
Exit status 0; 1 when a file does not read.
"""

import argparse
import io
import json
import math
import os
import statistics
import sys
import zipfile

SEMI_MAJOR = 6378137.0
FLATTENING = 1 / 298.257223563
E2 = FLATTENING * (2 - FLATTENING)
BOUNDARY_TOLERANCE = 0.1  # metres: how far an opening may lie from a unit boundary (the importer's)
SAMPLE_STEP = 0.05  # metres between samples along a room's boundary
CELL = 1.0  # metres: grid cell of the wall index


# ---------------------------------------------------------------- reading


def read_archive(path):
    """The archive's files as name -> bytes (top level, or the one folder holding manifest.json)."""
    files = {}
    if os.path.isdir(path):
        for root, _, names in os.walk(path):
            for name in names:
                full = os.path.join(root, name)
                with open(full, "rb") as handle:
                    files[os.path.relpath(full, path)] = handle.read()
    else:
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                if not info.is_dir():
                    files[info.filename] = archive.read(info)
    manifests = [name for name in files if os.path.basename(name) == "manifest.json"]
    if len(manifests) != 1:
        raise ValueError(f"{path}: expected one manifest.json, found {len(manifests)}")
    folder = os.path.dirname(manifests[0])
    return {os.path.relpath(name, folder) if folder else name: data for name, data in files.items()}


def features(files, kind):
    data = files.get(f"{kind}.geojson")
    if data is None:
        return []
    return json.load(io.BytesIO(data)).get("features") or []


def label(value):
    """The English (else first) text of an IMDF LABELS object."""
    if not isinstance(value, dict) or not value:
        return None
    for key in ("en", "en-US", "en-GB"):
        if value.get(key):
            return value[key]
    return next(iter(value.values()))


# ---------------------------------------------------------------- geometry


class Frame:
    """WGS84 longitude/latitude -> local metres, as GeoAnchor.point(of:)."""

    def __init__(self, anchor):
        self.lat = math.radians(anchor["latitude"])
        self.lon = math.radians(anchor["longitude"])
        self.bearing = math.radians(anchor.get("bearingDegrees", 0))
        self.origin = self.ecef(self.lat, self.lon)

    @staticmethod
    def ecef(lat, lon):
        n = SEMI_MAJOR / math.sqrt(1 - E2 * math.sin(lat) ** 2)
        return (n * math.cos(lat) * math.cos(lon), n * math.cos(lat) * math.sin(lon), n * (1 - E2) * math.sin(lat))

    def point(self, lon_lat):
        px, py, pz = self.ecef(math.radians(lon_lat[1]), math.radians(lon_lat[0]))
        dx, dy, dz = px - self.origin[0], py - self.origin[1], pz - self.origin[2]
        sl, cl, so, co = math.sin(self.lat), math.cos(self.lat), math.sin(self.lon), math.cos(self.lon)
        east = -so * dx + co * dy
        north = -sl * co * dx - sl * so * dy + cl * dz
        b = self.bearing
        return (east * math.cos(b) - north * math.sin(b), east * math.sin(b) + north * math.cos(b))


def polygons(geometry):
    """The polygons (lists of rings, each a list of [lon, lat]) of a Polygon or MultiPolygon."""
    if not geometry:
        return []
    if geometry.get("type") == "Polygon":
        return [geometry["coordinates"]]
    if geometry.get("type") == "MultiPolygon":
        return list(geometry["coordinates"])
    return []


def ring_edges(ring):
    points = list(ring)
    if len(points) > 1 and points[0] == points[-1]:
        points = points[:-1]
    return [(points[i], points[(i + 1) % len(points)]) for i in range(len(points))] if len(points) > 1 else []


def segment_distance(p, a, b):
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy))


def along(points, fraction):
    """The point at `fraction` of a polyline's length."""
    lengths = [math.dist(a, b) for a, b in zip(points, points[1:])]
    total = sum(lengths)
    target = fraction * total
    for (a, b), length in zip(zip(points, points[1:]), lengths):
        if target <= length and length > 0:
            t = target / length
            return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
        target -= length
    return points[-1]


def inside(p, rings):
    """Whether p is inside a polygon given as its outer ring and holes (even-odd rule)."""
    crossings = 0
    for ring in rings:
        for a, b in ring_edges(ring):
            if (a[1] > p[1]) != (b[1] > p[1]):
                x = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
                if x > p[0]:
                    crossings += 1
    return crossings % 2 == 1


def ring_area(ring):
    return 0.5 * sum(a[0] * b[1] - b[0] * a[1] for a, b in ring_edges(ring))


class SegmentIndex:
    """Segments on a grid of CELL metres, for "is there one within d of this point"."""

    def __init__(self, segments, reach):
        self.segments = segments
        self.cells = {}
        for index, (a, b) in enumerate(segments):
            x0, x1 = sorted((a[0], b[0]))
            y0, y1 = sorted((a[1], b[1]))
            for i in range(math.floor((x0 - reach) / CELL), math.floor((x1 + reach) / CELL) + 1):
                for j in range(math.floor((y0 - reach) / CELL), math.floor((y1 + reach) / CELL) + 1):
                    self.cells.setdefault((i, j), []).append(index)

    def nearest(self, p):
        """The distance to the nearest segment in p's cell (segments farther than `reach` may be missed)."""
        best = math.inf
        for index in self.cells.get((math.floor(p[0] / CELL), math.floor(p[1] / CELL)), ()):
            a, b = self.segments[index]
            best = min(best, segment_distance(p, a, b))
        return best


# ---------------------------------------------------------------- checks


def open_stretches(edges, walls, tolerance):
    """The samples of a closed boundary (every SAMPLE_STEP metres) with no wall within `tolerance`, as runs:
    lists of (point, metres) along the boundary, the last run joined to the first when the boundary's start is open."""
    runs = [[]]
    for a, b in edges:
        length = math.dist(a, b)
        steps = max(1, int(length / SAMPLE_STEP))
        for k in range(steps):
            t = (k + 0.5) / steps
            p = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
            if walls.nearest(p) <= tolerance:
                if runs[-1]:
                    runs.append([])
            else:
                runs[-1].append((p, length / steps))
    if not runs[-1]:
        runs.pop()
    if len(runs) > 1 and runs[0] and runs[-1] and walls.nearest(edges[0][0]) > tolerance:
        runs[0] = runs.pop() + runs[0]
    return runs


def groups(members, links):
    """The connected groups of `members` through `links` (pairs), largest first."""
    parent = {member: member for member in members}

    def root(member):
        while parent[member] != member:
            parent[member] = parent[parent[member]]
            member = parent[member]
        return member

    for first, second in links:
        if first in parent and second in parent:
            parent[root(first)] = root(second)
    found = {}
    for member in members:
        found.setdefault(root(member), []).append(member)
    return sorted(found.values(), key=len, reverse=True)


def check(archive_path, venue_path, tolerance, min_gap, label_chars, list_count):
    files = read_archive(archive_path)
    with open(venue_path, encoding="utf-8") as handle:
        venue = json.load(handle)
    if "anchor" not in venue:
        raise ValueError(f"{venue_path}: the venue has no anchor; `indoor venue import` writes one")
    frame = Frame(venue["anchor"])

    ordinal = {level["id"]: level["properties"].get("ordinal") for level in features(files, "level")}
    units = features(files, "unit")
    openings = features(files, "opening")
    occupants = features(files, "occupant")
    amenities = features(files, "amenity")
    floors = {floor.get("level", 0): floor for floor in venue.get("floors", [])}
    walls = {
        level: SegmentIndex([tuple(map(tuple, wall)) for wall in floor.get("walls", [])], tolerance)
        for level, floor in floors.items()
    }

    # Unit boundaries per floor, in metres, and each unit's edges.
    unit_edges = {}
    unit_polygons = {}
    boundary_by_floor = {}
    for unit in units:
        floor = ordinal.get(unit["properties"].get("level_id"))
        edges = []
        for polygon in polygons(unit.get("geometry")):
            rings = [[frame.point(p) for p in ring] for ring in polygon]
            unit_polygons.setdefault(unit["id"], []).append(rings)
            for ring in rings:
                edges += ring_edges(ring)
        unit_edges[unit["id"]] = (floor, edges)
        boundary_by_floor.setdefault(floor, []).extend(edges)
    boundaries = {floor: SegmentIndex(edges, BOUNDARY_TOLERANCE) for floor, edges in boundary_by_floor.items()}

    # Doors.
    verdicts = {"blocked": [], "partly": [], "open": [], "off boundary": [], "not a LineString": []}
    opening_lines = {}
    for opening in openings:
        geometry = opening.get("geometry") or {}
        if geometry.get("type") != "LineString":
            verdicts["not a LineString"].append((opening["id"], geometry.get("type")))
            continue
        floor = ordinal.get(opening["properties"].get("level_id"))
        points = [frame.point(p) for p in geometry["coordinates"]]
        opening_lines.setdefault(floor, []).append(points)
        samples = [along(points, f) for f in (0.3, 0.5, 0.7)]
        index = boundaries.get(floor)
        if index is None or index.nearest(samples[1]) > BOUNDARY_TOLERANCE:
            verdicts["off boundary"].append((opening["id"], floor))
            continue
        distances = [walls[floor].nearest(p) if floor in walls else math.inf for p in samples]
        covered = sum(d <= tolerance for d in distances)
        width = sum(math.dist(a, b) for a, b in zip(points, points[1:]))
        kind = "blocked" if covered == 3 else "partly" if covered else "open"
        verdicts[kind].append((opening["id"], floor, width, distances))

    # Rooms without a way in: archive (no opening on the boundary) and import (no open stretch of min_gap).
    opening_index = {
        floor: SegmentIndex([(a, b) for line in lines for a, b in zip(line, line[1:])], BOUNDARY_TOLERANCE)
        for floor, lines in opening_lines.items()
    }
    names = {unit["id"]: label(unit["properties"].get("name")) or label(unit["properties"].get("alt_name"))
             for unit in units}
    # A unit has a way in when an opening at least min_gap wide lies along its boundary (its points at 30, 50 and
    # 70 % within BOUNDARY_TOLERANCE of the unit's edges; an opening meeting the unit only at a corner is not one).
    unit_index = {unit_id: SegmentIndex(edges, BOUNDARY_TOLERANCE) for unit_id, (_, edges) in unit_edges.items()}
    units_by_floor = {}
    for unit_id, (floor, _) in unit_edges.items():
        units_by_floor.setdefault(floor, []).append(unit_id)
    entered = set()
    links_archive = []
    narrow = 0
    for floor, lines in opening_lines.items():
        for points in lines:
            if sum(math.dist(a, b) for a, b in zip(points, points[1:])) < min_gap:
                narrow += 1
                continue
            samples = [along(points, f) for f in (0.3, 0.5, 0.7)]
            on_boundary = [
                unit_id for unit_id in units_by_floor.get(floor, [])
                if all(unit_index[unit_id].nearest(p) <= BOUNDARY_TOLERANCE for p in samples)
            ]
            entered.update(on_boundary)
            # A unit drawn over another (stairs inside a corridor) opens into the unit that holds the opening.
            holding = [
                unit_id for unit_id in units_by_floor.get(floor, [])
                if unit_id not in on_boundary
                and any(inside(samples[1], rings) for rings in unit_polygons.get(unit_id, []))
            ]
            joined = on_boundary + holding
            links_archive += [(first, second) for first in joined for second in joined if first < second]
    closed_in_archive = set(unit_edges) - entered

    rooms = [zone for zone in venue.get("zones", []) if (zone.get("data") or {}).get("imdf") == "unit"]
    room_floor = {}
    room_fences = {}
    fence_edges = {}
    for zone in rooms:
        for fence in zone.get("fences", []):
            if fence.get("polygon"):
                floor = fence.get("floor", 0)
                room_floor[zone["id"]] = floor
                room_fences.setdefault(floor, {}).setdefault(zone["id"], []).append(
                    [fence["polygon"]] + fence.get("holes", []))
                for ring in [fence["polygon"]] + fence.get("holes", []):
                    fence_edges.setdefault(floor, []).extend((zone["id"], edge) for edge in ring_edges(ring))
    fence_index = {
        floor: (SegmentIndex([edge for _, edge in entries], BOUNDARY_TOLERANCE), [owner for owner, _ in entries])
        for floor, entries in fence_edges.items()
    }
    closed_after = set()
    areas = {}
    open_between = {}
    for zone in rooms:
        area = 0.0
        open_run = 0.0
        for fence in zone.get("fences", []):
            polygon = fence.get("polygon")
            if not polygon:
                continue
            area += abs(ring_area(polygon)) - sum(abs(ring_area(hole)) for hole in fence.get("holes", []))
            floor = fence.get("floor", 0)
            if floor not in walls:
                continue
            index, owners = fence_index[floor]
            for ring in [polygon] + fence.get("holes", []):
                for run in open_stretches(ring_edges(ring), walls[floor], tolerance):
                    metres = sum(step for _, step in run)
                    open_run = max(open_run, metres)
                    # A room drawn over another (stairs inside a corridor) opens into the room that holds it.
                    middle = run[len(run) // 2][0]
                    for other, fences in room_fences.get(floor, {}).items():
                        if other != zone["id"] and any(inside(middle, rings) for rings in fences):
                            pair = (zone["id"], other)
                            open_between[pair] = max(open_between.get(pair, 0.0), metres)
                    # Which other rooms this open stretch leads into, and over how many metres of it.
                    reach = {}
                    for point, step in run:
                        cell = index.cells.get((math.floor(point[0] / CELL), math.floor(point[1] / CELL)), ())
                        for other in {owners[i] for i in cell if owners[i] != zone["id"]
                                      and segment_distance(point, *index.segments[i]) <= BOUNDARY_TOLERANCE}:
                            reach[other] = reach.get(other, 0.0) + step
                    for other, length in reach.items():
                        pair = (zone["id"], other)
                        open_between[pair] = max(open_between.get(pair, 0.0), length)
        areas[zone["id"]] = (zone.get("name", ""), area, (zone.get("data") or {}).get("occupants"))
        if open_run < min_gap:
            closed_after.add(zone["id"])
    links_after = [pair for pair, metres in open_between.items() if metres >= min_gap]

    # Shared unit boundaries without an opening (they become walls): metres each pair of units shares, seen from
    # both sides (so halved).
    category = {unit["id"]: unit["properties"].get("category") for unit in units}
    pair_length = {}
    units_on_floor = {}
    for unit_id, (floor, edges) in unit_edges.items():
        units_on_floor.setdefault(floor, []).append((unit_id, edges))
    for floor, entries in units_on_floor.items():
        owner = [unit_id for unit_id, edges in entries for _ in edges]
        segments = [edge for _, edges in entries for edge in edges]
        index = SegmentIndex(segments, tolerance)
        openings_here = opening_index.get(floor)
        for k, (a, b) in enumerate(segments):
            length = math.dist(a, b)
            steps = max(1, int(length / 0.25))
            for s in range(steps):
                t = (s + 0.5) / steps
                p = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
                if openings_here is not None and openings_here.nearest(p) <= BOUNDARY_TOLERANCE:
                    continue
                others = {
                    owner[i] for i in index.cells.get((math.floor(p[0] / CELL), math.floor(p[1] / CELL)), ())
                    if owner[i] != owner[k] and segment_distance(p, *segments[i]) <= tolerance
                }
                for other in others:
                    pair = tuple(sorted((owner[k], other)))
                    pair_length[pair] = pair_length.get(pair, 0.0) + length / steps / 2
    shared_pairs = {pair: length for pair, length in pair_length.items() if length >= min_gap}
    kinds = {}
    for (first, second), length in shared_pairs.items():
        kind = " / ".join(sorted((str(category.get(first)), str(category.get(second)))))
        count, total = kinds.get(kind, (0, 0.0))
        kinds[kind] = (count + 1, total + length)

    # ---------------------------------------------------------------- report
    print(f"archive {archive_path}: {len(ordinal)} levels, {len(units)} units, {len(openings)} openings, "
          f"{len(occupants)} occupants, {len(amenities)} amenities")
    print(f"venue {venue_path}: {len(floors)} floors, {len(rooms)} rooms, "
          f"{sum(len(f.get('walls', [])) for f in floors.values())} walls, "
          f"{len(venue.get('connections', []))} connections, {len(venue.get('nodes', []))} nodes")
    print(f"doors (wall within {tolerance} m at 30/50/70 % of the opening):")
    for kind in ("open", "partly", "blocked", "off boundary", "not a LineString"):
        print(f"  {kind}: {len(verdicts[kind])}")
    for kind in ("blocked", "partly"):
        for opening_id, floor, width, distances in verdicts[kind][:list_count]:
            shown = ", ".join("-" if math.isinf(d) else f"{d:.3f}" for d in distances)
            print(f"    {kind} opening '{opening_id}' floor {floor} width {width:.2f} m: nearest wall {shown} m")
    for opening_id, floor in verdicts["off boundary"][:list_count]:
        print(f"    off boundary opening '{opening_id}' floor {floor}")

    def show(ids):
        return ", ".join(f"'{names.get(i) or i}'" for i in sorted(ids)[:list_count])

    room_ids = {zone["id"] for zone in rooms}
    lost = (room_ids - closed_in_archive) & closed_after
    gained = (closed_in_archive & room_ids) - closed_after
    print(f"rooms without a way in (no open stretch of {min_gap} m):")
    print(f"  in the archive (no opening of {min_gap} m or more along the boundary): {len(closed_in_archive)} of "
          f"{len(units)} units ({narrow} openings are narrower)")
    print(f"  after import: {len(closed_after)} of {len(rooms)} rooms")
    print(f"  had a way in, lost it in the import: {len(lost)}" + (f" ({show(lost)})" if lost else ""))
    print(f"  had none, have one after the import: {len(gained)}" + (f" ({show(gained)})" if gained else ""))
    print("groups of rooms reachable from one another on their floor (stairs and lifts left out):")
    walkway_joins = [pair for pair in shared_pairs
                     if category.get(pair[0]) == "walkway" and category.get(pair[1]) == "walkway"]
    for title, links in (("archive (through its openings)", links_archive),
                         ("archive, walkways that meet also joined", links_archive + walkway_joins),
                         ("after import (through wall gaps)", links_after)):
        by_floor = {}
        for room_id, floor in room_floor.items():
            by_floor.setdefault(floor, []).append(room_id)
        parts = []
        for floor in sorted(by_floor, key=lambda f: (f is None, f)):
            found = groups(by_floor[floor], links)
            alone = sum(len(group) == 1 for group in found)
            parts.append(f"floor {floor}: {len(found)} groups, largest {len(found[0])} of "
                         f"{len(by_floor[floor])} rooms, {alone} alone")
        print(f"  {title}: " + "; ".join(parts))
    print(f"unit pairs sharing {min_gap} m or more of boundary without an opening (drawn as walls): "
          f"{len(shared_pairs)}, {sum(shared_pairs.values()):.1f} m; by categories:")
    for kind, (count, total) in sorted(kinds.items(), key=lambda item: -item[1][1])[:list_count]:
        print(f"    {kind}: {count} pairs, {total:.1f} m")

    values = sorted(area for _, area, _ in areas.values())
    if values:
        p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
        print(f"room areas (m²): min {values[0]:.1f}, median {statistics.median(values):.1f}, p90 {p90:.1f}, "
              f"max {values[-1]:.1f}; under 4 m²: {sum(v < 4 for v in values)}, under 10 m²: "
              f"{sum(v < 10 for v in values)}")
    long_names = sorted(((name, area) for name, area, _ in areas.values() if len(name) > label_chars),
                        key=lambda item: -len(item[0]))
    small = [item for item in long_names if item[1] < 20]
    print(f"room names over {label_chars} characters: {len(long_names)} of {len(areas)} "
          f"({len(small)} of them in rooms under 20 m²); longest {max((len(n) for n, _ in long_names), default=0)}")
    for name, area in long_names[:list_count]:
        print(f"    '{name}' ({len(name)} characters, {area:.1f} m²)")
    with_occupants = [(name, occupants, area) for name, area, occupants in areas.values() if occupants]
    long_occupants = [item for item in with_occupants if len(item[1]) > label_chars]
    print(f"rooms with occupants (data.occupants): {len(with_occupants)}, their occupants' names over {label_chars} "
          f"characters: {len(long_occupants)}")
    for name, occupants, area in with_occupants[:list_count]:
        print(f"    room '{name}' ({area:.1f} m²): occupants '{occupants}'")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archive", help="the IMDF archive (a .zip file or a folder)")
    parser.add_argument("venue", help="the venue JSON `indoor venue import` wrote from it")
    parser.add_argument("--tolerance", type=float, default=0.05, help="metres: a wall this close blocks (0.05)")
    parser.add_argument("--min-gap", type=float, default=0.5, help="metres: the narrowest way in (0.5)")
    parser.add_argument("--label", type=int, default=14, help="characters: a longer name is a long label (14)")
    parser.add_argument("--list", type=int, default=5, help="examples listed per finding (5)")
    args = parser.parse_args()
    try:
        check(args.archive, args.venue, args.tolerance, args.min_gap, args.label, args.list)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
