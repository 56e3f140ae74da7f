import Foundation

/// Shows a build's progress while it runs, read from SwiftPM's `[n/m] Compiling Module …`
/// lines in the build log, so a first build is not a minute of silence.
///
/// On a terminal one line is redrawn in place (and erased at the end); otherwise a line is
/// printed every ``quietInterval`` seconds while the build goes on.
public final class BuildProgress: @unchecked Sendable {
    /// Where progress goes.
    public struct Display: Sendable {
        /// Writes text as it is (no newline added).
        public var write: @Sendable (String) -> Void
        /// Whether `write` reaches a terminal, where a line can be redrawn in place.
        public var interactive: Bool
        /// The language of the progress line.
        public var language: Language
        /// The terminal's width, which a redrawn line must not reach; nil if unknown.
        public var width: Int?

        public init(
            write: @escaping @Sendable (String) -> Void, interactive: Bool, language: Language = .english,
            width: Int? = nil
        ) {
            self.write = write
            self.interactive = interactive
            self.language = language
            self.width = width
        }
    }

    /// What the log said so far.
    public struct State: Equatable, Sendable {
        /// The last `[n/m]`: steps finished and steps planned (SwiftPM plans more as it goes).
        public var step = 0
        public var total = 0
        /// The modules SwiftPM compiled or emitted so far.
        public var modules: Set<String> = []
        /// The module of the latest step.
        public var current: String?
        /// Whether SwiftPM said the build is complete (or failed).
        public var finished = false

        public init() {}

        /// Reads one log line.
        public mutating func feed(_ line: Substring) {
            if line.hasPrefix("Build complete!") || line.hasPrefix("Build of product ")
                || line.hasPrefix("error: fatalError")
            {
                finished = true
            }
            guard let match = line.firstMatch(of: #/^\[(?<step>\d+)/(?<total>\d+)\] (?<what>.*)$/#),
                let step = Int(match.step), let total = Int(match.total)
            else { return }
            self.step = step
            self.total = total
            let words = match.what.split(separator: " ")
            if words.first == "Compiling", words.count >= 3 {
                record(String(words[1]))
            } else if words.starts(with: ["Emitting", "module"]), words.count >= 3 {
                record(String(words[2]))
            }
        }

        private mutating func record(_ module: String) {
            modules.insert(module)
            current = module
        }

        /// `[██████░░░░░░░░░░] 120/359 build steps, 14 modules compiled (now: Ch05UITransitions)`
        public func line(barWidth: Int = 16, language: Language = .english) -> String {
            let filled = total == 0 ? 0 : min(barWidth, step * barWidth / total)
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
            let text = language.catalog
            return text("build.progress", ["bar": bar, "step": step, "total": total, "count": modules.count])
                + (current.map { text("build.progress.now", ["module": $0]) } ?? "")
        }
    }

    /// How often a non-interactive display prints a line.
    public static let quietInterval: TimeInterval = 10

    private let log: URL
    private let display: Display
    private let lock = NSLock()
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)
    private var state = State()
    private var shownOnTerminal = false

    public init(log: URL, display: Display) {
        self.log = log
        self.display = display
    }

    /// Follows the log on a background thread until ``stop()``.
    public func start() {
        let thread = Thread { [self] in
            follow()
            finished.signal()
        }
        thread.start()
    }

    /// Stops following, and erases the progress line from a terminal.
    public func stop() {
        lock.withLock { stopped = true }
        finished.wait()
        if shownOnTerminal { display.write("\r\u{1B}[K") }
    }

    private func follow() {
        var offset: UInt64 = 0
        var partial = Data()
        var lastShown = Date()
        var lastLine = ""
        while !lock.withLock({ stopped }) {
            Thread.sleep(forTimeInterval: 0.2)
            if let handle = try? FileHandle(forReadingFrom: log) {
                try? handle.seek(toOffset: offset)
                let data = (try? handle.readToEnd()) ?? Data()
                try? handle.close()
                offset += UInt64(data.count)
                partial.append(data)
                if let end = partial.lastIndex(of: UInt8(ascii: "\n")) {
                    let text = String(decoding: partial[..<end], as: UTF8.self)
                    partial.removeSubrange(...end)
                    for line in text.split(separator: "\n") { state.feed(line) }
                }
            }
            guard state.total > 0, !state.finished else { continue }
            let line = state.line(language: display.language)
            if display.interactive {
                let line = Self.fit(line, width: display.width)
                if line != lastLine { display.write("\r\u{1B}[K  " + line) }
                shownOnTerminal = true
            } else if Date().timeIntervalSince(lastShown) >= Self.quietInterval, line != lastLine {
                display.write("  " + line + "\n")
                lastShown = Date()
            } else {
                continue
            }
            lastLine = line
        }
    }

    /// The progress line as a terminal shows it after its two-space indent: cut to end before the
    /// last column (a line that reaches it wraps on some terminals), so that each redraw
    /// overwrites the whole line and leaves no wrapped row behind.
    public static func fit(_ line: String, width: Int?) -> String {
        guard let width else { return line }
        return ProgressReport.shorten(line, to: max(8, width - 3))
    }

    /// Whether the learner build's tests were built before (so this build is incremental).
    public static func testsWereBuilt(in layout: PackageLayout) -> Bool {
        let debug = layout.url(PackageLayout.learnerScratchPath + "/debug")
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: debug.path)) ?? []
        return entries.contains { $0.hasSuffix("PackageTests.xctest") }
    }
}
