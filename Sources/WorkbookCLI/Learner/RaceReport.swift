/// The data races Thread Sanitizer reported during a test run, in the learner's terms.
///
/// A flag without a lock, or a lock that covers only the write, passes every deterministic
/// test: the race happens, but nothing checks for it. `workbook check NN --race` runs the
/// chapter's tests under Thread Sanitizer and reads its reports with this type: for each
/// race, the two accesses, which one writes, and where each is in the learner's files.
public struct RaceReport: Equatable, Sendable {
    /// One memory access of a race.
    public struct Access: Equatable, Sendable {
        /// Whether the access writes (else it reads).
        public var isWrite: Bool
        /// The innermost frame in the chapter's exercise files, as `File.swift:line`,
        /// or nil if the access happened outside them.
        public var learnerLine: String?
        /// The function of that frame (or of the innermost frame), shortened.
        public var function: String?

        public init(isWrite: Bool, learnerLine: String?, function: String?) {
            self.isWrite = isWrite
            self.learnerLine = learnerLine
            self.function = function
        }
    }

    /// One data race: the access Thread Sanitizer caught and the earlier one it conflicts with.
    public struct Race: Equatable, Sendable {
        public var current: Access
        public var previous: Access
    }

    /// The distinct races, in the order first reported.
    public var races: [Race] = []

    /// Reads Thread Sanitizer's output (`WARNING: ThreadSanitizer: data race` blocks),
    /// keeping only frames in files under `Chapters/<chapterFolder>/` as the learner's lines.
    public static func parse(_ output: String, chapterFolder: String) -> RaceReport {
        var report = RaceReport()
        var accesses: [Access] = []
        var inRace = false
        var collecting: Access?
        func finishAccess() {
            if let access = collecting { accesses.append(access) }
            collecting = nil
        }
        func finishRace() {
            finishAccess()
            if inRace, accesses.count >= 2 {
                let race = Race(current: accesses[0], previous: accesses[1])
                if !report.races.contains(race) { report.races.append(race) }
            }
            accesses = []
            inRace = false
        }
        for rawLine in output.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("WARNING: ThreadSanitizer:") {
                finishRace()
                inRace = line.contains("data race")
            } else if line.hasPrefix("SUMMARY: ThreadSanitizer") || line.hasPrefix("==================") {
                finishRace()
            } else if inRace, let isWrite = accessKind(line) {
                finishAccess()
                collecting = Access(isWrite: isWrite, learnerLine: nil, function: nil)
            } else if inRace, line.hasPrefix("#"), var access = collecting {
                let frame = Frame(line)
                if access.function == nil { access.function = frame.function }
                if access.learnerLine == nil, let location = frame.location(in: "Chapters/\(chapterFolder)/") {
                    access.learnerLine = location
                    access.function = frame.function
                }
                collecting = access
            } else if inRace,
                line.isEmpty || line.hasPrefix("Location is") || line.hasPrefix("Thread T")
                    || line.hasPrefix("Mutex")
            {
                finishAccess()
            }
        }
        finishRace()
        return report
    }

    /// "Write of size 8 at … by thread T2:" → true; "Previous read …" → false; else nil.
    static func accessKind(_ line: String) -> Bool? {
        let words = line.split(separator: " ").map { $0.lowercased() }
        let kinds = words.prefix(3).filter { $0 == "write" || $0 == "read" }
        guard let kind = kinds.first, line.contains(" of size ") else { return nil }
        return kind == "write"
    }

    /// The races in words, one paragraph each; empty if there were none.
    public func explanation(readingPointer: String) -> [String] {
        races.map { race in
            let first = Self.describe(race.current)
            let second = Self.describe(race.previous)
            let writers = [race.current, race.previous].filter(\.isWrite).count
            let what = writers == 2 ? "both write" : "one writes while the other reads"
            return """
                a data race in your code: two threads touched the same memory at the same time and \(what), \
                with nothing (no lock, no actor, no single queue) ordering the two; every access, reads \
                included, needs the same protection — see \(readingPointer)
                    \(first.capitalizedFirst)
                    \(second), on another thread
                """
        }
    }

    static func describe(_ access: Access) -> String {
        let verb = access.isWrite ? "writes" : "reads"
        let place = access.learnerLine ?? "code outside your exercise files"
        let function = access.function.map { " (in \($0))" } ?? ""
        return "\(place)\(function) \(verb)"
    }

    /// The mangled function names of every access, for ``demangled(by:)``.
    public var functionNames: [String] {
        races.flatMap { [$0.current.function, $0.previous.function] }.compactMap { $0 }
    }

    /// Whether Swift source `text` uses a `Mutex` (outside comments): then Thread Sanitizer on
    /// Linux, which can't see the futex a `Mutex` waits on, may report two threads taking turns
    /// in its `withLock` as a race, and the race check says so under its report.
    public static func usesMutex(_ text: String) -> Bool {
        text.split(separator: "\n").contains { line in
            let code = line.trimmingCharacters(in: .whitespaces)
            return !code.hasPrefix("//") && code.firstMatch(of: #/\bMutex\s*[<(]/#) != nil
        }
    }

    /// What the race check adds when the learner's files use a `Mutex`: the report above may
    /// hold races that aren't there, and how to tell them from real ones.
    public static let mutexCaveat = """
        Your exercise files use Mutex. On Linux, Thread Sanitizer can't see the futex a Mutex waits \
        on, so two threads taking turns in withLock on the same Mutex can show up above as a race \
        that isn't there. A race between two accesses inside withLock of one Mutex is such a \
        report; a race outside withLock, or between two different locks, is real. For a clean run, \
        use the workbook's Locked (the same withLock, built on NSLock) — see 'Data races the tests \
        can't see' in README.md
        """

    /// The same report with function names replaced through `names` (mangled to readable).
    public func demangled(by names: [String: String]) -> RaceReport {
        var copy = self
        for index in copy.races.indices {
            copy.races[index].current.function = copy.races[index].current.function.map { names[$0] ?? $0 }
            copy.races[index].previous.function = copy.races[index].previous.function.map { names[$0] ?? $0 }
        }
        return copy
    }
}

/// One stack frame line: `#0 function /path/File.swift:12:5 (binary+0x1234) (BuildId: …)`.
private struct Frame {
    var function: String?
    var path: String?
    var line: String?

    init(_ text: String) {
        let pattern = #/^#\d+\s+(?<function>\S+)\s+(?<path>\S+?):(?<line>\d+)(?::\d+)?\s/#
        if let match = text.firstMatch(of: pattern) {
            function = String(match.output.function)
            path = String(match.output.path)
            line = String(match.output.line)
        } else if let name = text.split(separator: " ").dropFirst().first {
            function = String(name)
        }
    }

    /// `File.swift:line` if the frame's file is under `folder` (a path fragment).
    func location(in folder: String) -> String? {
        guard let path, path.contains(folder), let line else { return nil }
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return "\(file):\(line)"
    }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
