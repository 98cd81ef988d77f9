#!/usr/bin/env python3
"""Shares of a server profile's samples by part of the ingest path.

    perf script -i perf.data -F comm,tid,ip,sym | swift demangle --simplified | scripts/bench/perf-shares.py

Reads `perf script` call chains (leaf first) and puts each sample in the first part, in the order below, that one
of its frames names; a sample none names is counted by its leaf frame's kind (allocation, reference counting,
kernel, other). Prints each part's share of all samples, largest first.
"""
import re
import sys

# (part, pattern on a frame's symbol). Earlier parts win: the session's work is the session's even where it
# allocates, the store's statement building is the store's even where it hashes, and encoding events is counted
# as such wherever it runs (in the store's commit, or before it).
PARTS = [
    ("session (LocationSession.ingest)", r"LocationSession\.ingest"),
    ("JSON of the events, for the store and the answer (JSONEncoder)", r"JSONEncoder|JSONWriter|\.encode\(to:\)|JSONResponse|IngestResponse\.json"),
    ("store: binding values (GRDB StatementArguments, then SQLiteBindings)", r"StatementArguments|Statement\.setArguments|sqlite3_bind|SQLiteBindings\.bind|bind\(to:at:\)"),
    ("store: SQL text and statement preparation", r"makeStatement|cachedStatement|sqlite3_prepare|sqlite3LockAndPrepare|Database\.makeStatement"),
    ("store: SQLite execution and file writes", r"SQLiteStore|Statement\.execute|sqlite3|DatabaseWriter|SerializedDatabase|inTransaction"),
    ("body reader (SightingBatchReader)", r"SightingBatchReader|JSONByteScanner"),
    ("admission (IngestPipeline.admit, PreparedBatch, outside the session and store)", r"VenueHub\.admit|IngestPipeline\.admit|PreparedBatch|SightingTimeWindow|VenueRuntime\.problem"),
    ("live events and observers", r"VenueRuntime\.live|SubscriberTable|LiveEvent|AsyncStream"),
    ("node health, metrics", r"NodeHealthBook|Counter\.increment|Recorder|Gauge|Prometheus|ServerMetrics\.recordStored"),
    ("ingest route (IngestRoutes.sightings, its errors)", r"IngestRoutes\.sightings|Request\.bodyBytes"),
    ("HTTP: parsing, body collection, routing, middleware", r"HTTPDecoder|llhttp|HTTPServerRequestPart|Hummingbird|HTTP1|Router|Middleware|ByteBuffer|RequestBody|Responder|HTTPResponse|KeyAuthenticator|ConnectionLimiter"),
    ("SwiftNIO: sockets, event loops", r"NIO|SelectableEventLoop|BaseSocketChannel|Channel|Selector|EventLoop"),
    ("task scheduling (dispatch, Swift concurrency)", r"swift_task|swift_job|_dispatch|Task<|withCheckedContinuation|SerialJobs"),
]
COMPILED = [(name, re.compile(pattern)) for name, pattern in PARTS]


def leaf_kind(symbol):
    if re.search(r"malloc|free|_int_|swift_allocObject|swift_slowAlloc|dealloc|swift_arrayDestroy", symbol):
        return "unattributed: allocation"
    if re.search(r"swift_retain|swift_release|RefCount|bridgeObject", symbol):
        return "unattributed: reference counting"
    if symbol.startswith("[k]") or re.match(r"^(__x64|do_syscall|entry_SYSCALL|_raw_spin|finish_task)", symbol):
        return "unattributed: kernel"
    return "unattributed: other"


def main():
    counts = {}
    total = 0
    frames = []

    def flush():
        nonlocal total
        if not frames:
            return
        total += 1
        part = None
        for name, pattern in COMPILED:
            if any(pattern.search(frame) for frame in frames):
                part = name
                break
        if part is None:
            part = leaf_kind(frames[0])
        counts[part] = counts.get(part, 0) + 1
        frames.clear()

    for line in sys.stdin:
        text = line.strip()
        if not text:
            flush()
            continue
        if line[0] not in " \t":
            flush()
            continue
        parts = text.split(None, 1)
        frames.append(parts[1] if len(parts) > 1 else parts[0])
    flush()
    if total == 0:
        sys.exit("perf-shares: no samples on standard input")
    print(f"{total} samples")
    for name, count in sorted(counts.items(), key=lambda item: -item[1]):
        print(f"{100 * count / total:6.1f} %  {name}")


if __name__ == "__main__":
    main()
