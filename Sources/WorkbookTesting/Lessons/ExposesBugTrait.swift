import Testing

/// Marks a test that fails on the unfixed exercise because of one specific bug.
///
/// In learner mode and against the solutions the trait does nothing: the test must pass
/// once the bug is fixed. In exercise-check mode (``WorkbookMode/exerciseCheck``) it wraps
/// the test in `withKnownIssue`, matched on the lesson's bug phrase, so that
/// - the test must still fail (an accidentally fixed exercise, or a test that stopped
///   catching its bug, makes the check fail: "Known issue was not recorded"), and
/// - it must fail for the stated reason (an issue about anything else is a real failure).
public struct ExposesBugTrait: TestTrait, TestScoping {
    /// The bug the unfixed exercise shows.
    public let lessons: [Lesson]
    /// Whether the unfixed exercise shows the bug only in some runs (a data race that loses an
    /// update now and then): then a run that passes is fine, and a run that fails must fail
    /// for the stated reason.
    public var intermittent = false
    /// The mode to apply; `nil` reads ``WorkbookMode/current``. Set only by the instruments' own tests.
    var modeOverride: WorkbookMode?

    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        guard (modeOverride ?? WorkbookMode.current) == .exerciseCheck else {
            try await function()
            return
        }
        let lessons = self.lessons
        try await withKnownIssue(
            Comment(rawValue: "the unfixed exercise still shows: " + lessons.map(\.bug).joined(separator: "; ")),
            isIntermittent: intermittent
        ) {
            try await function()
        } matching: { issue in
            lessons.contains { $0.matches(issue) }
        }
    }
}

extension Trait where Self == ExposesBugTrait {
    /// This test exposes `lesson`'s bug in the unfixed exercise. See ``ExposesBugTrait``.
    public static func exposesBug(_ lesson: Lesson, _ more: Lesson...) -> Self {
        ExposesBugTrait(lessons: [lesson] + more)
    }

    /// This test may expose `lesson`'s bug in the unfixed exercise, in some runs only: a data
    /// race the test can see when it strikes but can't make strike. In the exercise check a
    /// failure must be for that lesson, and a pass is fine. See ``ExposesBugTrait``.
    public static func mayExposeBug(_ lesson: Lesson, _ more: Lesson...) -> Self {
        var trait = ExposesBugTrait(lessons: [lesson] + more)
        trait.intermittent = true
        return trait
    }
}
