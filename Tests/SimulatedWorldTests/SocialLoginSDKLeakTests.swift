import SimulatedWorld
import Synchronization
import Testing
import WorkbookTesting

// What chapter 02's reading says about `withUnsafeContinuation`, checked against the runtime:
// with a checked continuation, a completion the SDK drops takes the continuation with it and
// the runtime prints "leaked its continuation"; with an unsafe one, the same leak is silent.
// Both first callers stay suspended. This is a demonstration of the toolchain's behaviour, not
// a test of the learner's code, so it lives here and does not count toward chapter 02. The
// chapter's own retry test says which of the two a learner's leak looks like.

private func loginHidingTheWarning(_ sdk: SocialLoginSDK) async throws -> LoginToken {
    try await withUnsafeThrowingContinuation { continuation in
        sdk.login { result in continuation.resume(with: result.mapError { $0 as any Error }) }
    }
}

private func loginWithCheckedContinuation(_ sdk: SocialLoginSDK) async throws -> LoginToken {
    try await withCheckedThrowingContinuation { continuation in
        sdk.login { result in continuation.resume(with: result.mapError { $0 as any Error }) }
    }
}

/// Set once by the task it was handed to, when that task ends.
private final class EndFlag: Sendable {
    private let ended = Atomic(false)
    var hasEnded: Bool { ended.load(ordering: .sequentiallyConsistent) }
    func markEnded() { ended.store(true, ordering: .sequentiallyConsistent) }
}

/// Starts `login` twice on `sdk`, as a user who retries without deciding, and returns the
/// flag of the first call.
private func loginThenRetry(
    _ login: @escaping @Sendable (SocialLoginSDK) async throws -> LoginToken, on sdk: SocialLoginSDK
) async -> EndFlag {
    let first = EndFlag()
    Task {
        _ = try? await login(sdk)
        first.markEnded()
    }
    await sdk.loginRequests.reach(1)
    Task { _ = try? await login(sdk) }
    await sdk.loginRequests.reach(2)
    return first
}

/// Whether the runtime's leak warning reaches `log` within the hang limit. The warning is
/// printed when the continuation's last reference goes, which can be a moment after the SDK
/// drops the completion: the first login's task may still be returning from its closure.
/// The log is read after the wait, however it ended: inside a scenario, a bounded wait also
/// ends early when the runtime reports a leak, the very report awaited here, and on a busy
/// machine its check can see the report before the loop does.
private func leakWarningAppears(in log: CrashLog) async -> Bool {
    _ = await withinHangLimit {
        while !log.contents.contains("leaked its continuation") { await Task.yield() }
    }
    return log.contents.contains("leaked its continuation")
}

private let crashed = Lesson(
    chapter: "02-ContinuationMisuse", bug: "the leak demonstration crashed",
    explanation: "neither wrapper resumes twice, so nothing here should trap",
    section: "Why not just use withUnsafeContinuation?")

@Suite("SocialLoginSDK: a dropped completion leaks its continuation, loudly or silently")
struct SocialLoginSDKLeakTests {
    @Test("An unsafe continuation silences the leak warning, but the first caller is still stuck")
    func unsafeContinuationOnlyHidesTheLeak() async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success) { [log = log as CrashLog] in
                await log.runScenario {

                    // Checked: the SDK drops the first completion, the continuation goes with it,
                    // and the runtime says so on standard error.
                    let checkedSDK = SocialLoginSDK(whenSuperseded: .drop)
                    let checkedFirst = await loginThenRetry(loginWithCheckedContinuation, on: checkedSDK)
                    #expect(checkedSDK.droppedCallbackCount == 1)
                    #expect(await leakWarningAppears(in: log), "the checked continuation's leak warning was printed")
                    let warningsSoFar = log.contents

                    // Unsafe: the same leak happens, silently.
                    let unsafeSDK = SocialLoginSDK(whenSuperseded: .drop)
                    let unsafeFirst = await loginThenRetry(loginHidingTheWarning, on: unsafeSDK)
                    #expect(unsafeSDK.droppedCallbackCount == 1)
                    #expect(log.contents == warningsSoFar, "the unsafe continuation printed nothing")

                    // Both first callers lost the only code that could resume them: they never end.
                    #expect(!checkedFirst.hasEnded && !unsafeFirst.hasEnded)
                }
            }
        }
        log.explain(run, as: crashed)
    }
}
