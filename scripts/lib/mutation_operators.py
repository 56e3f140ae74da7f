"""The mutation check's catalogue: concurrency mutation operators, applied by text.

Pure functions, no build: `mutants_of(name, text)` returns every mutant of one Swift file.
Each mutant has a stable id, `FILE: OPERATOR: TEXT`, where TEXT is the mutated line's code
(comments dropped, spaces collapsed), so the id survives lines moving up or down; a second
mutant with the same id in the same file gets ` #2`, and so on. scripts/mutation-check
builds and judges them; Solutions/MUTATION-CHECK.md describes the operators.
"""
import re


class Mutant:
    def __init__(self, file, line, operator, description, text, mutated):
        self.file = file              # the solution file's name, e.g. PhotoLoader.swift
        self.line = line              # 1-based line of the mutation, for people (not in the id)
        self.operator = operator      # e.g. delete-resume
        self.description = description
        self.text = text              # the mutated line's code, normalized
        self.mutated = mutated        # the whole mutated file, as text
        self.id = f"{file}: {operator}: {text}"

    def __repr__(self):
        return f"Mutant({self.id!r}, line {self.line})"


# ---------------------------------------------------------------- reading Swift lines by text

def mask(line):
    """The line with string literals' contents and comments blanked out (same length), so
    patterns match code only and positions still index the original line."""
    out, in_string, i = [], False, 0
    while i < len(line):
        c = line[i]
        if in_string:
            if c == "\\" and i + 1 < len(line):
                out += [" ", " "]
                i += 2
                continue
            out.append('"' if c == '"' else " ")
            in_string = c != '"'
        elif c == '"':
            out.append(c)
            in_string = True
        elif line.startswith("//", i):
            out.append(" " * (len(line) - i))
            break
        else:
            out.append(c)
        i += 1
    return "".join(out)


def code(line):
    """The line's code without its comment, spaces collapsed: the text of an id."""
    masked = mask(line)
    end = len(masked.rstrip())
    return " ".join(line[:end].replace("`", "'").split())


def balance_steps(masked):
    """Running bracket depth along the line: (depth at the end, lowest depth on the way)."""
    depth = lowest = 0
    for c in masked:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            lowest = min(lowest, depth)
    return depth, lowest


CONTINUES = ("(", ",", "=", "&&", "||", "+", "-", "?", ":", "->", ".")
NOT_A_STATEMENT = ("}", ")", "]", ".", "let ", "var ", "guard ", "return ", "case ", "default",
                   "else", "@", "func ", "init(", "import ", "public ", "private ", "internal ",
                   "final ", "struct ", "class ", "enum ", "actor ", "extension ", "#")


def is_comment_or_blank(line):
    stripped = line.strip()
    return not stripped or stripped.startswith(("//", "/*", "*"))


def statement_extent(lines, masks, i):
    """(first, last) lines of the statement that starts on line i, or None when line i does
    not start a statement (it continues an expression, closes a block, declares a name)."""
    stripped = masks[i].strip()
    if not stripped or stripped.startswith(NOT_A_STATEMENT):
        return None
    previous = next((masks[k].strip() for k in range(i - 1, -1, -1) if masks[k].strip()), "")
    if previous.endswith(CONTINUES) and not previous.endswith("?."):
        return None
    depth, lowest = balance_steps(masks[i])
    if lowest < 0:
        return None
    last = i
    while depth > 0 and last + 1 < len(lines) and last - i < 20:
        last += 1
        step, low = balance_steps(masks[last])
        if depth + low < 0:
            return None
        depth += step
    if depth != 0:
        return None
    while last + 1 < len(lines) and masks[last + 1].strip().startswith("."):
        last += 1  # a chained call on the next line belongs to the statement
    return i, last


# ---------------------------------------------------------------- the operators

# Deleting a statement: (operator, pattern in the code, what the statement does).
DELETIONS = [
    ("delete-resume", r"\.resume\(", "resumes"),
    ("delete-cancel", r"\.cancel\(\)", "cancels"),
    ("delete-finish", r"\.finish\(", "finishes"),
    ("delete-cancel-all", r"\bcancelAll\(\)", "cancels every child task"),
    ("delete-unlock", r"\.unlock\(\)", "unlocks"),
    ("delete-remove", r"\b(removeValue|removeAll|removeFirst|removeLast|remove)\(", "removes or clears"),
    ("delete-clear-to-nil", r"^\s*(self\.)?[A-Za-z_][\w.]*(\[[^\]]*\])?\s*=\s*nil\s*$", "clears stored state to nil"),
    ("delete-cancel-check", r"\btry\s+Task\.checkCancellation\(\)", "checks for cancellation"),
    ("delete-yield", r"\.yield\(", "yields an element to a stream"),
    ("delete-locked-update", r"^\s*(?:self\??\.)?[\w.?]+\.withLock\s*\{", "changes state under a lock"),
    ("delete-atomic-update", r"\.(?:wrappingAdd|wrappingSubtract|store)\([^()]*ordering:", "updates an atomic"),
]

# Replacing text in one line: (operator, pattern, replacement, description).
REPLACEMENTS = [
    ("invert-cancel-check", r"(?<![!\w.])Task\.isCancelled", "!Task.isCancelled", "inverts the cancellation check"),
    ("invert-cancel-check", r"!\s*Task\.isCancelled", "Task.isCancelled", "inverts the cancellation check"),
    ("ignore-cancel-check", r"(?<![\w.])Task\.isCancelled", "false", "the cancellation check never sees a cancel"),
    ("try-to-try?", r"^(\s*(?:_\s*=\s*)?)try await\b", r"\1try? await", "turns `try await` into `try? await`"),
    ("task-to-detached", r"(?<![\w.])Task\s*\{", "Task.detached {", "turns `Task {` into `Task.detached {`"),
    ("detached-to-task", r"(?<![\w.])Task\.detached\s*\{", "Task {", "turns `Task.detached {` into `Task {`"),
    ("drop-main-actor", r"\{\s*@MainActor\s+in\b", "{", "drops the closure's `@MainActor`"),
    ("drop-main-actor", r"@MainActor(?:\s+(?!in\b)|\s*$)", "", "drops a `@MainActor`"),
    ("main-queue-to-global", r"\bDispatchQueue\.main\.(async|sync)\b", r"DispatchQueue.global().\1",
     "hops to a global queue instead of the main queue"),
    ("buffering-newest-to-oldest", r"\.bufferingNewest\(", ".bufferingOldest(", "keeps the oldest elements instead of the newest"),
    ("buffering-oldest-to-newest", r"\.bufferingOldest\(", ".bufferingNewest(", "keeps the newest elements instead of the oldest"),
    ("buffering-to-unbounded", r"\.buffering(?:Newest|Oldest)\([^()]*\)", ".unbounded", "buffers without a limit"),
    ("unbounded-to-buffering", r"(?<=bufferingPolicy: )\.unbounded\b", ".bufferingNewest(1)", "buffers one element"),
    ("limit-minus-one", r"\.(prefix|dropFirst|suffix|dropLast)\(([^()]+)\)", r".\1(\2 - 1)",
     "takes one element fewer (or drops one fewer)"),
    ("off-by-one-compare", r"(?<=\S) < (?=\S)", " <= ", "`<` becomes `<=`"),
    ("off-by-one-compare", r"(?<=\S) <= (?=\S)", " < ", "`<=` becomes `<`"),
    ("off-by-one-compare", r"(?<=\S) > (?=\S)", " >= ", "`>` becomes `>=`"),
    ("off-by-one-compare", r"(?<=\S) >= (?=\S)", " > ", "`>=` becomes `>`"),
    ("off-by-one-range", r"(?<=[\w)])\.\.<(?=[\w(])", "...", "`..<` becomes `...`"),
    ("off-by-one-range", r"(?<=[\w)])\.\.\.(?=[\w(])", "..<", "`...` becomes `..<`"),
    ("drop-guard-condition", r"\b(guard\s+let\s+self)\s*,\s*[^{]+?(\s+else\b)", r"\1\2",
     "drops the guard's condition after `let self`"),
]
LIMIT_WORDS = re.compile(r"limit|[mM]ax|[cC]ount|capacity|[wW]indow|[wW]idth|prefix|suffix|drop(First|Last)"
                         r"|attempt|retr|[sS]ize|[bB]atch")
# A function's or initializer's header: its default values are not limits.
DECLARATION = re.compile(r"^\s*(?:(?:public|private|internal|fileprivate|package|nonisolated|static|"
                         r"override|convenience|@\w+)\s+)*(?:func|init)\b")
CONTROL = ("if ", "for ", "while ", "guard ", "return", "throw ", "break", "continue", "case ", "default",
           "switch ", "do ", "do{", "defer", "}", "{")


def mutants_of(name, text):
    """Every mutant of the Swift file `name` whose contents are `text`, in a stable order,
    without two that produce the same file."""
    lines = text.split("\n")
    masks = [mask(line) for line in lines]
    found = []

    def add(line_index, operator, description, id_text, new_lines):
        mutated = "\n".join(new_lines)
        if mutated != text:
            found.append(Mutant(name, line_index + 1, operator, description, id_text, mutated))

    for i, line in enumerate(lines):
        if is_comment_or_blank(line):
            continue
        masked = masks[i]
        for operator, pattern, what in DELETIONS:
            if operator == "delete-locked-update" and returns_its_value(masks, i):
                continue  # the value a function returns: without it, it would not compile
            if re.search(pattern, masked):
                extent = statement_extent(lines, masks, i)
                if extent:
                    first, last = extent
                    new = lines[:first] + [""] * (last - first + 1) + lines[last + 1:]
                    add(i, operator, f"deletes the statement that {what}", code(line), new)
        if LIMIT_WORDS.search(masked) and not DECLARATION.match(masked):
            for match in re.finditer(r"(?<![\w.])\d+(?![\w.])", masked):
                number = int(match.group())
                replaced = line[:match.start()] + str(number + 1) + line[match.end():]
                add(i, "limit-plus-one", f"the limit {number} becomes {number + 1}", code(line),
                    lines[:i] + [replaced] + lines[i + 1:])
        for operator, pattern, replacement, description in REPLACEMENTS:
            if operator == "try-to-try?" and returns_its_value(masks, i):
                continue
            for match in re.finditer(pattern, masked):
                replaced = line[:match.start()] + match.expand(replacement) + line[match.end():]
                add(i, operator, description, code(line), lines[:i] + [replaced] + lines[i + 1:])
        if re.search(r"\[weak self[\],]", masked):
            add_strong_self(lines, masks, i, add)
    add_moves_across_await(lines, masks, add)

    # The same file reached by two operators (delete-resume and delete-remove of one line,
    # say) is one mutant: keep the first. Then number repeated ids.
    unique, seen, counts = [], set(), {}
    for mutant in found:
        if mutant.mutated in seen:
            continue
        seen.add(mutant.mutated)
        counts[mutant.id] = counts.get(mutant.id, 0) + 1
        if counts[mutant.id] > 1:
            mutant.id += f" #{counts[mutant.id]}"
        unique.append(mutant)
    return unique


def returns_its_value(masks, i):
    """Whether line i is the single expression a function with a result type returns (so
    `try?` there would not compile): the line before is the function's `-> Type {`."""
    previous = next((masks[k].strip() for k in range(i - 1, -1, -1) if masks[k].strip()), "")
    return previous.endswith("{") and "->" in previous


def add_strong_self(lines, masks, i, add):
    """Drops `weak` from `[weak self]`: the closure captures self strongly (`[self]`), and its
    `self?.` and `guard let self` become plain uses of self."""
    depth, last = 0, i
    for k in range(i, min(len(lines), i + 40)):
        step, _ = balance_steps(masks[k])
        depth += step
        last = k
        if depth <= 0 and k > i:
            break
    new = list(lines)
    new[i] = re.sub(r"\[weak self\b", "[self", lines[i], count=1)
    for k in range(i, last + 1):
        new[k] = new[k].replace("self?.", "self.")
        if re.match(r"^\s*guard let self(\s*=\s*self)? else \{ return \}\s*$", new[k]):
            new[k] = ""
    add(i, "drop-weak-self", "captures self strongly instead of `[weak self]`", code(lines[i]), new)


def single_statement(lines, masks, i):
    """Whether line i is a whole statement on its own (not a block's start or end)."""
    stripped = masks[i].strip()
    if not stripped or is_comment_or_blank(lines[i]):
        return False
    if stripped.startswith(CONTROL + ("]", ")", ".", "@", "func ", "public ", "private ", "init(")):
        return False
    if stripped.endswith(("{", "(", ",", " in", "=")):
        return False
    depth, lowest = balance_steps(masks[i])
    return depth == 0 and lowest == 0 and statement_extent_ok(lines, masks, i)


def statement_extent_ok(lines, masks, i):
    previous = next((masks[k].strip() for k in range(i - 1, -1, -1) if masks[k].strip()), "")
    following = next((masks[k].strip() for k in range(i + 1, len(lines)) if masks[k].strip()), "")
    return not previous.endswith(CONTINUES) and not following.startswith(".")


def declared(masked):
    match = re.match(r"\s*(?:let|var)\s+(\(([^)]*)\)|\w+)", masked)
    if not match:
        return set()
    return set(re.findall(r"\w+", match.group(2))) if match.group(2) else {match.group(1)}


def add_moves_across_await(lines, masks, add):
    """Swaps a statement with its neighbour in the same block when one of them awaits, unless
    one declares a name the other uses (that would not compile)."""
    for i in range(len(lines) - 1):
        j = i + 1
        if not (re.search(r"\bawait\b", masks[i]) or re.search(r"\bawait\b", masks[j])):
            continue
        if not (single_statement(lines, masks, i) and single_statement(lines, masks, j)):
            continue
        indent = lambda s: len(s) - len(s.lstrip())  # noqa: E731
        if indent(lines[i]) != indent(lines[j]):
            continue
        if any(re.search(rf"\b{re.escape(n)}\b", masks[j]) for n in declared(masks[i])):
            continue
        if any(re.search(rf"\b{re.escape(n)}\b", masks[i]) for n in declared(masks[j])):
            continue
        new = lines[:i] + [lines[j], lines[i]] + lines[j + 1:]
        add(i, "move-across-await", "swaps a statement with its neighbour across an `await`",
            f"{code(lines[i])} <-> {code(lines[j])}", new)


# ---------------------------------------------------------------- MUTANTS.md and the score

EQUIVALENT_LINE = re.compile(r"^\s*[-*]\s+`([^`]+)`\s*(?:[:\u2014\u2013-]\s*)?(.*)$")


def parse_equivalents(text):
    """MUTANTS.md: one line per equivalent mutant, `- `ID`: reason`. Returns ({id: reason},
    [problems]); a listed mutant without a reason is a problem."""
    equivalents, problems = {}, []
    for number, line in enumerate(text.splitlines(), 1):
        match = EQUIVALENT_LINE.match(line)
        if not match:
            continue
        mutant_id, reason = match.group(1).strip(), match.group(2).strip()
        if not reason:
            problems.append(f"line {number}: `{mutant_id}` has no reason")
        elif mutant_id in equivalents:
            problems.append(f"line {number}: `{mutant_id}` is listed twice")
        else:
            equivalents[mutant_id] = reason
    return equivalents, problems


def score(generated, stillborn, killed, equivalent):
    """Killed among the mutants that could be killed: killed / (generated - stillborn -
    equivalent), or None when there are none."""
    judged = generated - stillborn - equivalent
    return killed / judged if judged > 0 else None


def format_score(value):
    return "n/a" if value is None else f"{100 * value:.0f}%"
