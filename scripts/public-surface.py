#!/usr/bin/env python3
"""First pass over the root libraries' public declarations: where each one's name is used.

Usage: scripts/public-surface.py [--apply] [--report FILE] [--keep scripts/public-surface-keep.txt]

For every `public`/`open` declaration in Sources/*, it looks for the declared name as a word in
  - its own target (other lines than the declaration),
  - the root's other targets,
  - the root's tests (a test file that `@testable import`s the owning target counts as the target itself),
  - the Server package's Sources and Tests, Fuzz/ and Tests/AppSide (the app-side package: each a package of its
    own, which sees only public API),
  - the app-facing docs: README.md, docs/SESSION.md, docs/SCAN.md, docs/FORMATS.md and the DocC articles
    (code blocks and `backticks`; the catalogs' topic lists are not counted, they follow the code), and the
    Swift code blocks of the other docs/*.md.
It proposes `public` (server, fuzz, app side or docs), `package` (other root targets or tests without @testable) or
`internal`. A member never gets more than its enclosing type. Initialisers count uses of `Type(`; protocol
witnesses (description, encode(to:), ==, ...) keep their type's level. It is a first pass by name: a common
member name used anywhere keeps the member public. The compiler and a reading decide the rest.
--apply rewrites the access keyword in place (only lowering).
"""

import os
import re
import sys
from collections import Counter, defaultdict

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
os.chdir(ROOT)

DECL = re.compile(
    r"^(?P<indent>\s*)(?P<attrs>(?:@\w+(?:\([^)]*\))?\s+)*)(?P<access>public|open)\b(?P<setter>\s+(?:private|internal|fileprivate)\(set\))?"
    r"(?P<mods>(?:\s+(?:static|final|mutating|nonmutating|nonisolated|override|convenience|required|indirect|lazy|class(?=\s+(?:func|var|let))))*)"
    r"\s+(?P<kind>struct|enum|class|protocol|actor|typealias|extension|func|var|let|init|subscript|case)\b"
    r"(?P<rest>.*)$"
)
WITNESSES = {
    "description", "debugDescription", "errorDescription", "encode", "hash", "hashValue", "id", "makeIterator",
    "next", "rawValue", "allCases", "callAsFunction", "localizedDescription", "failureReason", "recoverySuggestion",
    "startIndex", "endIndex", "index", "underestimatedCount", "makeAsyncIterator",
}


def swift_files(folder):
    for dirpath, _, names in os.walk(folder):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(dirpath, name)


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def strip_comments(text):
    return re.sub(r"//.*", "", text)


def doc_api_text(path):
    """Code blocks and backtick spans of a Markdown file, without the DocC topic lists (- ``Symbol``)."""
    text = read(path)
    parts = re.findall(r"```.*?```", text, flags=re.S)
    rest = re.sub(r"```.*?```", "", text, flags=re.S)
    rest = re.sub(r"^\s*- ``[^`]+``\s*$", "", rest, flags=re.M)
    parts += re.findall(r"``?[^`\n]+``?", rest)
    return "\n".join(parts)


targets = sorted(d for d in os.listdir("Sources") if os.path.isdir(os.path.join("Sources", d)))
source_text = {}  # path -> text without comments
target_of = {}
for target in targets:
    for path in swift_files(os.path.join("Sources", target)):
        source_text[path] = strip_comments(read(path))
        target_of[path] = target

tests = {}  # path -> (text, set of @testable modules)
for path in swift_files("Tests"):
    if path.startswith(os.path.join("Tests", "AppSide") + os.sep):
        continue  # a package of its own, as an app is: below
    text = read(path)
    tests[path] = (strip_comments(text), set(re.findall(r"@testable\s+import\s+(\w+)", text)))

external = {}
for folder in ["Server/Sources", "Server/Tests", "Fuzz", "Tests/AppSide"]:
    for path in swift_files(folder):
        external[path] = strip_comments(read(path))

doc_paths = ["README.md", "docs/SESSION.md", "docs/SCAN.md", "docs/FORMATS.md"]
for target in targets:
    docc = os.path.join("Sources", target, target + ".docc")
    if os.path.isdir(docc):
        doc_paths += [os.path.join(docc, n) for n in sorted(os.listdir(docc)) if n.endswith(".md")]
docs = {p: doc_api_text(p) for p in doc_paths if os.path.exists(p)}
for name in sorted(os.listdir("docs")):
    path = os.path.join("docs", name)
    if name.endswith(".md") and path not in docs:
        blocks = re.findall(r"```swift.*?```", read(path), flags=re.S)
        if blocks:
            docs[path] = "\n".join(blocks)

LEVEL = {"internal": 0, "package": 1, "public": 2}


class Decl:
    def __init__(self, path, line, target, kind, name, parent, match):
        self.path, self.line, self.target, self.kind, self.name = path, line, target, kind, name
        self.parent, self.match = parent, match
        self.level, self.why = "internal", []


def declared_name(kind, rest):
    if kind == "init":
        return "init"
    if kind == "subscript":
        return "subscript"
    match = re.match(r"\s*(`?[A-Za-z_][A-Za-z0-9_]*`?|[^\s(<]+)", rest)
    return match.group(1).strip("`") if match else "?"


decls = []
for path in sorted(source_text):
    lines = read(path).split("\n")
    stack = []  # (depth at which the scope opened, type name)
    depth = 0
    for number, raw in enumerate(lines, 1):
        code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', re.sub(r"//.*", "", raw))
        match = DECL.match(raw)
        opened_type = None
        if match:
            kind = match.group("kind")
            name = declared_name(kind, match.group("rest"))
            parent = stack[-1][1] if stack else None
            decls.append(Decl(path, number, target_of[path], kind, name, parent, match))
            if kind in ("struct", "enum", "class", "protocol", "actor", "extension"):
                opened_type = name
        else:
            type_match = re.match(
                r"^\s*(?:@\w+\s+)*(?:(?:private|fileprivate|internal|package|final|indirect)\s+)*"
                r"(struct|enum|class|actor|extension|protocol)\s+([A-Za-z_][\w.]*)",
                raw,
            )
            if type_match:
                opened_type = type_match.group(2)
        for char in code:
            if char == "{":
                depth += 1
                if opened_type is not None:
                    # A type's full name: `Outer.Inner` inside a type; an extension names its type in full.
                    qualified = opened_type
                    if stack and not (match and match.group("kind") == "extension") and not re.match(
                        r"^\s*(?:\w+\s+)*extension\b", raw
                    ):
                        qualified = stack[-1][1] + "." + opened_type
                    stack.append((depth, qualified))
                    opened_type = None
            elif char == "}":
                if stack and stack[-1][0] == depth:
                    stack.pop()
                depth -= 1

TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\(|<|\s*\{)?")


def tokens(text):
    """How often each identifier occurs, and each one followed by `(`, `<` or `{` (counted as `name(`)."""
    counts = Counter()
    for token in TOKEN.findall(text):
        name = token.rstrip("(<{ \t\n")
        counts[name] += 1
        if name != token:
            counts[name + "("] += 1  # a call, a generic argument list or a trailing closure may construct it
    return counts


source_tokens = {path: tokens(text) for path, text in source_text.items()}
test_tokens = {path: (tokens(text), testable) for path, (text, testable) in tests.items()}
external_tokens = {path: tokens(text) for path, text in external.items()}
doc_tokens = {path: tokens(text) for path, text in docs.items()}


def uses(key, own_path, target):
    """Where the identifier `key` (or `Name(` for a call) occurs, by kind of place."""
    found = set()
    for path, counts in source_tokens.items():
        count = counts[key] - (1 if path == own_path else 0)  # the declaration itself
        if count > 0:
            found.add("own" if target_of[path] == target else "root:" + target_of[path])
    for path, (counts, testable) in test_tokens.items():
        if counts[key]:
            found.add("test@testable" if target in testable else "test:" + path.split("/")[1])
    for path, counts in external_tokens.items():
        if counts[key]:
            found.add("server:" + path)
    for path, counts in doc_tokens.items():
        if counts[key]:
            found.add("doc:" + path)
    return found


by_type = defaultdict(list)
for decl in decls:
    if decl.kind in ("struct", "enum", "class", "protocol", "actor", "typealias"):
        by_type[decl.name].append(decl)

for decl in decls:
    if decl.kind == "extension":
        decl.level, decl.why = "public", ["extension keyword"]
        continue
    if decl.kind == "init":
        if decl.parent is None:
            decl.level = "public"
            continue
        base = decl.parent.split(".")[-1]
        if "from decoder" in decl.match.group("rest") or "rawValue" in decl.match.group("rest"):
            decl.level, decl.why = "public", ["witness"]
            continue
        # Uses of `Type(`, `Type<…>(` or `Type { … }`; `.init(` with an inferred type is not seen (the compiler tells).
        found = uses(base + "(", decl.path, decl.target)
        decl.why = sorted(found)
    elif decl.name in WITNESSES or not re.match(r"^[A-Za-z_]", decl.name) or decl.kind == "subscript":
        decl.level, decl.why = "public", ["witness or operator"]
        continue
    else:
        decl.why = sorted(uses(decl.name, decl.path, decl.target))
    level = "internal"
    for reason in decl.why:
        if reason.startswith(("server:", "doc:")):
            level = "public"
        elif reason.startswith(("root:", "test:")) and level != "public":
            level = "package"
    decl.level = level

# What a reading (or the compiler) found public though the names do not say so: one qualified name a line,
# `Type.init` for every initialiser of Type, `package Name` to keep it package only, `# …` a comment saying why.
keep = set()
if "--keep" in sys.argv:
    for line in read(sys.argv[sys.argv.index("--keep") + 1]).split("\n"):
        line = line.split("#")[0].strip()
        if line:
            level, _, name = line.rpartition(" ")
            keep.add((name, level or "public"))
kept = dict(keep)
for decl in decls:
    qualified = (decl.parent + "." if decl.parent else "") + decl.name
    if qualified in kept and LEVEL[kept[qualified]] > LEVEL[decl.level]:
        decl.level, decl.why = kept[qualified], decl.why + ["kept " + kept[qualified]]

# A member never gets more than its enclosing type (extensions of another target's types are free).
type_level = {}
for decl in decls:
    if decl.kind in ("struct", "enum", "class", "protocol", "actor"):
        qualified = (decl.parent + "." if decl.parent else "") + decl.name
        type_level[qualified] = decl.level
        type_level.setdefault(decl.name, decl.level)
for decl in decls:
    if decl.parent and decl.kind != "extension":
        parent_level = type_level.get(decl.parent, type_level.get(decl.parent.split(".")[-1]))
        if parent_level is not None and LEVEL[parent_level] < LEVEL[decl.level]:
            decl.level = parent_level
            decl.why = decl.why + ["capped by " + decl.parent]
        elif decl.level == "public" and decl.why in (["witness"], ["witness or operator"]) and parent_level:
            decl.level = parent_level

report_path = None
if "--report" in sys.argv:
    report_path = sys.argv[sys.argv.index("--report") + 1]
out = open(report_path, "w", encoding="utf-8") if report_path else sys.stdout
for decl in decls:
    qualified = (decl.parent + "." if decl.parent else "") + decl.name
    reasons = ",".join(r if not r.startswith("server:") else "server" for r in decl.why)
    reasons = ",".join(sorted(set(reasons.split(","))))
    print(f"{decl.level}\t{decl.target}\t{decl.kind}\t{qualified}\t{decl.path}:{decl.line}\t{reasons}", file=out)

if "--apply" in sys.argv:
    changes = defaultdict(dict)
    for decl in decls:
        if decl.level != "public" and decl.kind != "extension":
            changes[decl.path][decl.line] = decl.level
    for path, lines_to_change in changes.items():
        lines = read(path).split("\n")
        for number, level in lines_to_change.items():
            raw = lines[number - 1]
            match = DECL.match(raw)
            start, end = match.span("access")
            replacement = "" if level == "internal" else "package"
            new = raw[:start] + replacement + raw[end:]
            if level == "internal":
                new = raw[:start] + raw[end:].lstrip(" ") if start == len(match.group("indent")) + len(match.group("attrs")) else raw[:start] + raw[end:].lstrip(" ")
            lines[number - 1] = new
        temporary = path + ".tmp"
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines))
        os.replace(temporary, path)
    print(f"rewrote {sum(len(v) for v in changes.values())} declarations in {len(changes)} files", file=sys.stderr)
