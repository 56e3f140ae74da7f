import Foundation

/// The outcome of one `swift test` run, read from Swift Testing's JSON event stream
/// (`--event-stream-output-path`, version 0), never from the console text.
public struct TestRun: Equatable, Sendable {
    /// One test function, in the order the stream declared it.
    public struct TestResult: Equatable, Sendable {
        /// The test ID, for example `Ch01ContinuationsTests.DownloadImageTests/errorIsThrown()/…`.
        public var id: String
        /// The name shown to people: the `@Test("…")` text.
        public var displayName: String
        public var started = false
        public var ended = false
        /// The messages of the issues that count (known issues do not).
        public var issues: [String] = []

        /// The module (test target) the test lives in: the ID up to the first dot.
        public var module: String { String(id.prefix { $0 != "." }) }
        /// Failed: recorded an issue, or started and never ended (the run died in it).
        public var failed: Bool { !issues.isEmpty || (started && !ended) }
    }

    public var tests: [TestResult] = []
    /// Whether the stream reached the end of the run (false if the test process died).
    public var runEnded = false

    /// The tests of one test target.
    public func tests(inModule module: String) -> [TestResult] { tests.filter { $0.module == module } }

    /// Reads a JSON-lines event stream. Lines it cannot read are skipped, so that a stream
    /// cut short by a crash still tells what happened before.
    public static func parse(eventStream text: String) -> TestRun {
        var run = TestRun()
        var indexByID: [String: Int] = [:]
        let decoder = JSONDecoder()
        for line in text.split(whereSeparator: \.isNewline) {
            guard let record = try? decoder.decode(Record.self, from: Data(line.utf8)) else { continue }
            let payload = record.payload
            switch (record.kind, payload.kind) {
            case ("test", "function"):
                guard let id = payload.id, indexByID[id] == nil else { continue }
                indexByID[id] = run.tests.count
                run.tests.append(TestResult(id: id, displayName: payload.displayName ?? payload.name ?? id))
            case ("event", "testStarted"), ("event", "testEnded"), ("event", "testSkipped"):
                guard let id = payload.testID, let index = indexByID[id] else { continue }
                if payload.kind == "testStarted" {
                    run.tests[index].started = true
                } else {
                    run.tests[index].ended = true
                }
            case ("event", "issueRecorded"):
                guard payload.issue?.isKnown != true, let id = payload.testID else { continue }
                let message = Self.message(of: payload.messages ?? [])
                for index in run.tests.indices where Self.id(id, covers: run.tests[index].id) {
                    run.tests[index].issues.append(message)
                }
            case ("event", "runEnded"):
                run.runEnded = true
            default:
                continue
            }
        }
        return run
    }

    /// The learner-facing text of an issue: its comments (the lesson), or else the failure line.
    /// A `//` comment that Swift Testing took from the line above the `#expect` comes after
    /// the others, so that the lesson stays the message's first line.
    static func message(of messages: [Record.Message]) -> String {
        let details = messages.filter { $0.symbol == "details" }.map(\.text)
        let fromSource = details.filter { $0.hasPrefix("//") }
        let ordered = details.filter { !$0.hasPrefix("//") } + fromSource
        if !ordered.isEmpty { return ordered.joined(separator: "\n") }
        return messages.first { $0.symbol == "fail" }?.text ?? "the test failed"
    }

    /// Whether an issue recorded under `issueID` belongs to the test `testID`: the test
    /// itself, one of its cases, or a suite that contains it.
    static func id(_ issueID: String, covers testID: String) -> Bool {
        issueID == testID || issueID.hasPrefix(testID + "/") || testID.hasPrefix(issueID + "/")
    }

    /// The parts of an event-stream record the workbook reads.
    struct Record: Decodable {
        var kind: String
        var payload: Payload

        struct Payload: Decodable {
            var kind: String
            var id: String?
            var name: String?
            var displayName: String?
            var testID: String?
            var messages: [Message]?
            var issue: IssueInfo?
        }

        struct Message: Decodable {
            var symbol: String
            var text: String
        }

        struct IssueInfo: Decodable {
            var isKnown: Bool?
        }
    }
}
