import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch02ContinuationMisuseSolution
#else
    import Ch02ContinuationMisuse
#endif

private let reading = ChapterReading("02-ContinuationMisuse")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let retryLeaksFirstCaller = reading.lesson(
        "a retry leaks the first caller",
        "the user came back without deciding and tapped \"Log in\" again; the first login() is still suspended and will never finish",
        section: "One continuation per attempt")
    static let lateCallbackResumesTwice = reading.lesson(
        "a late callback resumes a continuation twice",
        "the SDK called the first login's completion after the retry had finished, and the wrapper resumed an already-resumed continuation",
        section: "Resume once, ignore the rest")
    static let cancelledCallerStaysSuspended = reading.lesson(
        "a cancelled login() stays suspended",
        "the awaiting task was cancelled, but nothing resumed its continuation, so the task can never end",
        section: "Cancellation must resume too")
    static let wrongOutcome = reading.lesson(
        "a login finished with the wrong outcome",
        "each login() should end with the user's answer, LoginAttemptError.superseded when a retry replaces it, or CancellationError",
        section: "One continuation per attempt")
    static let neverResumes = reading.lesson(
        "login() is never resumed",
        "the user answered, but the caller is still suspended",
        section: "One continuation per attempt")
    static let neverAsksTheSDK = reading.lesson(
        "login() never calls the SDK",
        "the wrapper must start the SDK's login(completion:) for every call",
        section: "One continuation per attempt")
    static let crashed = reading.lesson(
        "the login wrapper crashed the process",
        "a continuation must be resumed exactly once; resuming twice traps",
        section: "Resume once, ignore the rest")
}

/// Starts `service.login()` in a task and returns once the SDK has seen login number `count`.
private func startLogin(
    _ service: LoginService, on sdk: SocialLoginSDK, number count: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> Task<LoginToken, any Error> {
    let task = Task { try await service.login() }
    await awaitResult(
        of: { await sdk.loginRequests.reach(count) }, orRecord: Bugs.neverAsksTheSDK,
        sourceLocation: sourceLocation)
    return task
}

/// Waits, within the hang limit, for `task` to finish; records `lesson` if it does not.
private func outcome(
    of task: Task<LoginToken, any Error>, orRecord lesson: Lesson,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> Result<LoginToken, any Error>? {
    await awaitResult(of: { try await task.value }, orRecord: lesson, sourceLocation: sourceLocation)
}

/// Plays a user who starts a login, comes back without deciding, retries, and approves the
/// retry with `token`. Returns the first login's task and the retry's outcome.
private func loginThenRetry(
    on sdk: SocialLoginSDK, approving token: LoginToken, sourceLocation: SourceLocation = #_sourceLocation
) async -> (first: Task<LoginToken, any Error>, retried: Result<LoginToken, any Error>?) {
    let service = LoginService(sdk: sdk)
    let first = await startLogin(service, on: sdk, number: 1, sourceLocation: sourceLocation)
    sdk.userReturnsWithoutDeciding()
    let retry = await startLogin(service, on: sdk, number: 2, sourceLocation: sourceLocation)
    sdk.userApproves(token)
    let retried = await outcome(of: retry, orRecord: Bugs.neverResumes, sourceLocation: sourceLocation)
    return (first, retried)
}

private func isSuperseded(_ result: Result<LoginToken, any Error>?) -> Bool {
    guard case .failure(let error)? = result else { return false }
    return error as? LoginAttemptError == .superseded
}

@Suite("Chapter 02: continuation misuse in a social-login wrapper")
struct LoginServiceTests {
    // Each scenario runs in a child process (an exit test): a double resume traps, and the
    // trap must end only that scenario.

    @Test("The user approves: login() returns the token")
    func approvedLogin() async {
        let log = CrashLog()
        let run = await #expect(processExitsWith: .success, Bugs.crashed.comment) {
            [log = log as CrashLog] in
            await log.runScenario {
                let sdk = SocialLoginSDK()
                let login = await startLogin(LoginService(sdk: sdk), on: sdk, number: 1)
                sdk.userApproves(LoginToken("alice"))
                let result = await outcome(of: login, orRecord: Bugs.neverResumes)
                #expect(result?.value == LoginToken("alice"), Bugs.wrongOutcome.comment)
            }
        }
        log.explain(run, as: Bugs.crashed)
    }

    @Test("The user refuses: login() throws the SDK's error")
    func deniedLogin() async {
        let log = CrashLog()
        let run = await #expect(processExitsWith: .success, Bugs.crashed.comment) {
            [log = log as CrashLog] in
            await log.runScenario {
                let sdk = SocialLoginSDK()
                let login = await startLogin(LoginService(sdk: sdk), on: sdk, number: 1)
                sdk.userDenies()
                let result = await outcome(of: login, orRecord: Bugs.neverResumes)
                #expect(throws: SocialLoginError.userDenied, Bugs.wrongOutcome.comment) { try result?.get() }
            }
        }
        log.explain(run, as: Bugs.crashed)
    }

    @Test(
        "The user returns without deciding and retries: the first login() ends as superseded",
        .exposesBug(Bugs.retryLeaksFirstCaller))
    func retryFinishesTheFirstCaller() async {
        let log = CrashLog()
        let run = await #expect(processExitsWith: .success, Bugs.crashed.comment) {
            [log = log as CrashLog] in
            await log.runScenario {
                let sdk = SocialLoginSDK(whenSuperseded: .drop)
                let (first, retried) = await loginThenRetry(on: sdk, approving: LoginToken("bob"))
                #expect(retried?.value == LoginToken("bob"), Bugs.wrongOutcome.comment)
                // The SDK dropped the first completion: only the wrapper can still end that call.
                let firstResult = await outcome(of: first, orRecord: Bugs.retryLeaksFirstCaller)
                if firstResult != nil {
                    #expect(isSuperseded(firstResult), Bugs.wrongOutcome.comment)
                }
            }
        }
        log.explain(run, as: Bugs.crashed)
    }

    @Test(
        "A late callback for a superseded login is ignored: no crash, no second resume",
        .exposesBug(Bugs.lateCallbackResumesTwice))
    func lateCallbackIsIgnored() async {
        let log = CrashLog()
        let run = await #expect(processExitsWith: .success, Bugs.lateCallbackResumesTwice.comment) {
            [log = log as CrashLog] in
            await log.runScenario {
                let sdk = SocialLoginSDK(whenSuperseded: .keepForLateDelivery)
                let (_, retried) = await loginThenRetry(on: sdk, approving: LoginToken("carol"))
                #expect(retried?.value == LoginToken("carol"), Bugs.wrongOutcome.comment)

                // Now the SDK calls the first login's completion, late.
                sdk.deliverLateCallbacks(.success(LoginToken("stale")))
                await awaitResult(of: { await sdk.callbacksDelivered.reach(2) }, orRecord: Bugs.neverResumes)
            }
        }
        log.explain(run, as: Bugs.lateCallbackResumesTwice)
    }

    @Test(
        "Cancelling the task that awaits login() resumes it with CancellationError",
        .exposesBug(Bugs.cancelledCallerStaysSuspended))
    func cancellationResumesTheCaller() async {
        let log = CrashLog()
        let run = await #expect(processExitsWith: .success, Bugs.crashed.comment) {
            [log = log as CrashLog] in
            await log.runScenario {
                let sdk = SocialLoginSDK()
                let login = await startLogin(LoginService(sdk: sdk), on: sdk, number: 1)
                login.cancel()
                let result = await outcome(of: login, orRecord: Bugs.cancelledCallerStaysSuspended)
                if let result {
                    #expect(throws: CancellationError.self, Bugs.wrongOutcome.comment) { try result.get() }
                }
            }
        }
        log.explain(run, as: Bugs.crashed)
    }
}
