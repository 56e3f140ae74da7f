"""A copy of the workbook with some chapters' files replaced, built once and tested by chapter.

Shared by scripts/variant-check (wrong and right fixes over a solution) and
scripts/mutation-check (mutants of a solution): the copy lives in `.build-<name>/tree`, a
round replaces the files of the chapters it tests, builds the test product once, and runs
the built tests (scripts/lib/run-built-tests), judging each chapter from Swift Testing's
event stream. Nothing here knows about variants or mutants.
"""
import fcntl
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile

RUN_TIME_LIMIT = 300  # seconds for one test run; a variant that loops is stopped and reported
# The built tests, run without SwiftPM's start-up on Linux (`swift test --skip-build` elsewhere).
RUN_BUILT_TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "run-built-tests")

# The flags the workbook tool builds with (LearnerCommands): scripts/verify's copy starts as a
# fresh clone whose first `swift run workbook` built it, and a round with other flags would
# compile everything again. (Without debug information a cold build is about a third shorter,
# but a round only compiles what it changed: about 8% longer with it, measured.)
BUILD_FLAGS = ["--disable-default-traits"]
# Set to a repeated run's number, it has each suite's scenarios share one child process
# (WorkbookTesting's SharedChild): the right fixes' runs after the first.
SHARED_CHILD_VARIABLE = "WORKBOOK_SHARED_CHILD"

ENDED_EARLY = "the test run ended before this test did"
NOT_RECORDED = "Known issue was not recorded"


def load_chapters(repo, wanted=None, tool="variant-check"):
    """The curriculum's chapters; with `wanted` (a number like 04, or a folder), only that one."""
    chapters = json.load(open(os.path.join(repo, "Chapters", "curriculum.json")))["chapters"]
    if wanted:
        key = wanted.zfill(2) if wanted.isdigit() else wanted
        chapters = [c for c in chapters if c["folder"] == key or c["folder"].startswith(key + "-")]
        if not chapters:
            sys.exit(f"{tool}: no chapter {wanted}")
    return chapters


_locks = []


def lock_tree(tree, tool):
    """Holds the copy for this process (until it ends): the variant check and the mutation
    check share `.build-variants/tree`, so a second run waits for the first."""
    os.makedirs(tree, exist_ok=True)
    handle = open(os.path.join(os.path.dirname(tree), "lock"), "w")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"{tool}: waiting for another check that is using {tree}", flush=True)
        fcntl.flock(handle, fcntl.LOCK_EX)
    _locks.append(handle)


def swift_files(folder):
    return sorted(f for f in os.listdir(folder) if f.endswith(".swift"))


def files_under(folder):
    """Every file under `folder` (not in hidden folders), sorted, as paths."""
    found = []
    for directory, subdirectories, names in os.walk(folder):
        subdirectories[:] = sorted(d for d in subdirectories if not d.startswith("."))
        found += [os.path.join(directory, n) for n in sorted(names)]
    return found


def files_digest(repo, version, paths):
    """A SHA-256 that starts from `version` (a line the script bumps when its verdicts could
    change for the same files) and covers each file's path in `repo`, size and bytes. The
    mutation check and the variant check record their results with one, so that a check
    without a build can tell a result is stale."""
    digest = hashlib.sha256(f"{version}\n".encode())
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        digest.update(f"{os.path.relpath(path, repo)} {len(data)}\n".encode())
        digest.update(data)
    return digest


def overall_fingerprint(fingerprints):
    """One SHA-256 over the chapters of a record and their fingerprints: a record whose line
    doesn't match was edited by hand."""
    text = "".join(f"{folder} {fingerprints[folder]}\n" for folder in sorted(fingerprints))
    return hashlib.sha256(text.encode()).hexdigest()


def read_marked_json(path, mark):
    """The JSON a record file (MUTATION.md, VARIANT-CHECK.md) carries on its line that starts
    with `mark` (an HTML comment, which GitHub doesn't show); None if the file or line is missing."""
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith(mark):
                    return json.loads(line[len(mark):].rsplit(" -->", 1)[0])
    except FileNotFoundError:
        pass
    return None


def fingerprint_line_matches(path, fingerprints):
    """Whether the record file's "Fingerprint: sha256 …" line is the overall fingerprint of
    `fingerprints` (folder -> fingerprint): a record edited by hand fails."""
    with open(path, encoding="utf-8") as f:
        match = re.search(r"^Fingerprint: sha256 ([0-9a-f]{64})$", f.read(), re.M)
    return bool(match) and match.group(1) == overall_fingerprint(fingerprints)


def write_if_changed(data, destination):
    """Writes only when the bytes differ, so unchanged files keep their timestamps and the
    incremental build stays incremental."""
    try:
        with open(destination, "rb") as f:
            if f.read() == data:
                return
    except FileNotFoundError:
        os.makedirs(os.path.dirname(destination), exist_ok=True)
    with open(destination, "wb") as f:
        f.write(data)


def copy_if_changed(source, destination):
    with open(source, "rb") as f:
        write_if_changed(f.read(), destination)


def sync_tree(repo, tree, keep_solved=False):
    """Makes `tree` a copy of the workbook's files (not .git, build folders or local state):
    the package, and the top-level files the tool's own tests read (the READMEs, .gitignore).
    With `keep_solved`, an exercise file that holds its chapter's current solution stays: the
    rounds place every chapter they judge themselves, so the chapters a round leaves alone need
    not go back to their exercise and compile again (after the fix check, that is all of them)."""
    keep = set()
    for top in ["Package.swift", "README.md", "README.ko.md", ".gitignore", "Sources", "Tests", "Chapters", "Solutions"]:
        path = os.path.join(repo, top)
        if not os.path.exists(path):
            continue
        if os.path.isfile(path):
            copy_if_changed(path, os.path.join(tree, top))
            keep.add(top)
            continue
        for directory, subdirectories, files in os.walk(path):
            subdirectories[:] = [d for d in subdirectories if not d.startswith(".")]
            for name in files:
                relative = os.path.relpath(os.path.join(directory, name), repo)
                keep.add(relative)
                if keep_solved and holds_solution(repo, tree, relative):
                    continue
                copy_if_changed(os.path.join(repo, relative), os.path.join(tree, relative))
    for top in ["Sources", "Tests", "Chapters", "Solutions"]:
        for directory, _, files in os.walk(os.path.join(tree, top)):
            for name in files:
                relative = os.path.relpath(os.path.join(directory, name), tree)
                if relative not in keep:
                    os.remove(os.path.join(tree, relative))


def holds_solution(repo, tree, relative):
    """Whether the copy's `relative` is a chapter's exercise file (Chapters/NN-Name/X.swift)
    whose bytes are its current solution's."""
    parts = relative.split(os.sep)
    if len(parts) != 3 or parts[0] != "Chapters" or not parts[2].endswith(".swift"):
        return False
    try:
        with open(os.path.join(tree, relative), "rb") as placed, \
                open(solution_source(repo, parts[1], parts[2]), "rb") as solved:
            return placed.read() == solved.read()
    except FileNotFoundError:
        return False


def solution_source(repo, folder, name):
    """The solution's file `name` of a chapter; an exercise file the solution leaves as it is
    has no twin there, so the exercise's own."""
    solved = os.path.join(repo, "Solutions", folder, name)
    return solved if os.path.exists(solved) else os.path.join(repo, "Chapters", folder, name)


def place_chapter(repo, tree, folder, overrides=None, exercise=False):
    """Puts a chapter's files in the copy's Chapters/: the exercise as it is (`exercise`), or
    the solution with `overrides` (file name -> bytes) in place of some of its files."""
    overrides = overrides or {}
    for name in swift_files(os.path.join(repo, "Chapters", folder)):
        destination = os.path.join(tree, "Chapters", folder, name)
        if exercise:
            copy_if_changed(os.path.join(repo, "Chapters", folder, name), destination)
        elif name in overrides:
            write_if_changed(overrides[name], destination)
        else:
            copy_if_changed(solution_source(repo, folder, name), destination)


def build(tree, applied, tool="variant-check", blame="variant", quiet=False, owners=None):
    """Builds the copy's test product; returns the chapter folders (of `applied`) whose
    files broke the build: an error in a path holding one of `owners(folder)` (by default
    the chapter's Chapters/ folder). Exits when the build fails and no chapter is to blame;
    `quiet` prints the errors only then."""
    owners = owners or (lambda folder: [f"/Chapters/{folder}/"])
    # Only what the tests run: the test product, not the solution modules nor the tool; with
    # BUILD_FLAGS, as the tool and scripts/verify build the copy, so that a round stays incremental.
    result = subprocess.run(
        ["swift", "build", "--product", test_product(tree, tool), "--scratch-path", ".build", *BUILD_FLAGS],
        cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode == 0:
        return []
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    broken = [f for f in applied if any(o in line for line in errors for o in owners(f))]
    if not quiet or not broken:
        print("\n".join(errors[:30] or result.stdout.splitlines()[-30:]))
    if not broken:
        sys.exit(f"{tool}: the copy does not build, and no {blame} is to blame (see above)")
    return broken


def test_product(tree, tool="variant-check"):
    """The product SwiftPM makes of every test target: `<package name>PackageTests`."""
    with open(os.path.join(tree, "Package.swift")) as f:
        match = re.search(r'\bPackage\(\s*name:\s*"([^"]+)"', f.read())
    if not match:
        sys.exit(f"{tool}: no package name in Package.swift")
    return match.group(1) + "PackageTests"


def run_tests(tree, modules, mode=None, time_limit=RUN_TIME_LIMIT, shared_run=None):
    """One run of `modules` (learner mode unless `mode` says otherwise); returns (tests by id,
    a problem with the run or None). `shared_run`, a repeated run's number (2, 3, ...), has each
    suite's scenarios share one child process (WorkbookTesting's SharedChild)."""
    events = tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False).name
    environment = dict(os.environ)
    environment.pop("WORKBOOK_MODE", None)
    environment.pop(SHARED_CHILD_VARIABLE, None)
    if mode:
        environment["WORKBOOK_MODE"] = mode
    if shared_run:
        environment[SHARED_CHILD_VARIABLE] = str(shared_run)
    command = [RUN_BUILT_TESTS, "--scratch-path", ".build",
               "--event-stream-output-path", events, "--event-stream-version", "0"]
    for module in modules:
        command += ["--filter", module + "Tests"]
    process = subprocess.Popen(command, cwd=tree, env=environment, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=time_limit)
        problem = None
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        problem = f"the run passed its {time_limit}s limit and was stopped"
    tests, run_ended = parse_events(events)
    os.remove(events)
    unfinished = [t for t in tests.values() if t["started"] and not t["ended"]]
    if problem is None and (not run_ended or unfinished or not tests):
        problem = "the test process ended before the run did"
    for t in unfinished:
        t["issues"].append(ENDED_EARLY)
    if problem:
        running = ", ".join(f'"{t["name"]}"' for t in unfinished) or "none reported"
        problem += f" (running: {running})"
        if not tests:
            problem += "\n" + "\n".join(output.splitlines()[-15:])
    return tests, problem


def parse_events(path):
    tests, run_ended = {}, False
    with open(path, errors="replace") as f:
        for line in f:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            payload = record.get("payload", {})
            kind = (record.get("kind"), payload.get("kind"))
            if kind == ("test", "function"):
                tests.setdefault(payload["id"], {
                    "name": payload.get("displayName") or payload.get("name"),
                    "started": False, "ended": False, "issues": []})
            elif kind in (("event", "testStarted"), ("event", "testEnded"), ("event", "testSkipped")):
                test = tests.get(payload.get("testID"))
                if test is not None:
                    test["started" if kind[1] == "testStarted" else "ended"] = True
            elif kind == ("event", "issueRecorded"):
                if payload.get("issue", {}).get("isKnown"):
                    continue
                text = "\n".join(m.get("text", "") for m in payload.get("messages", []))
                issue_id = payload.get("testID") or ""
                for test_id, test in tests.items():
                    if issue_id == test_id or issue_id.startswith(test_id + "/") or test_id.startswith(issue_id + "/"):
                        test["issues"].append(text)
            elif kind == ("event", "runEnded"):
                run_ended = True
    return tests, run_ended


def chapter_tests(tests, module):
    return [t for test_id, t in tests.items() if test_id.startswith(module + "Tests.")]


def judge(tests, module):
    """A chapter's tests in a run, the names of those that failed, and the issues they
    recorded; a test left running when the run ended counts as recording ENDED_EARLY."""
    mine = chapter_tests(tests, module)
    for t in mine:
        if t["started"] and not t["ended"] and ENDED_EARLY not in t["issues"]:
            t["issues"].append(ENDED_EARLY)
    failed = [t["name"] for t in mine if t["issues"]]
    issues = [i for t in mine for i in t["issues"]]
    return mine, failed, issues
