import Dispatch
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
        "the SDK called a superseded login's completion late, and the wrapper resumed a continuation that had already been resumed",
        section: "Resume once, ignore the rest")
    static let lateCallbackCompletesRetry = reading.lesson(
        "a late callback completed the retry",
        "the SDK called the first login's completion late, while the retry was still waiting for the user, and the retry ended with that stale answer; each completion may end only its own attempt",
        section: "Resume once, ignore the rest")
    static let finishedLoginResumedAgain = reading.lesson(
        "a finished login() was resumed again",
        "the first login had already returned its token, and starting the next login resumed its continuation a second time; once a continuation is resumed, nothing may keep it as if it were still waiting",
        section: "Resume once, ignore the rest")
    static let cancelledCallerStaysSuspended = reading.lesson(
        "a cancelled login() stays suspended",
        "the awaiting task was cancelled, but nothing resumed its continuation, so the task can never end",
        section: "Cancellation must resume too")
    static let wrongOutcome = reading.lesson(
        "a login finished with the wrong outcome",
        "each login() should end with the user's answer, LoginAttemptError.superseded when a retry replaces it, or CancellationError",
        section: "One continuation per attempt")
    static let cancelledBeforeStart = reading.lesson(
        "a login() that was cancelled before it started went ahead anyway",
        "its task was already cancelled when login() was called; it must end at once with CancellationError, without opening the other app and without ending the login that is still waiting for the user",
        section: "Cancelled before it starts")
    static let releasedServiceCrashes = reading.lesson(
        "a completion that arrived after the LoginService was gone crashed the process",
        "the SDK may call a completion after the service that started the login has been released; the completion must not assume the service is still there (`unowned self` does)",
        section: "Callbacks that outlive the service")
    static let asksTheSDKAgain = reading.lesson(
        "login() asked the SDK more than once",
        "each call to login() must start the SDK's login(completion:) exactly once",
        section: "One continuation per attempt")
    static let answerAndCancelResumeTwice = reading.lesson(
        "the user's answer and a cancellation both resumed login()",
        "they arrived at the same moment, on two threads, and both got past the resume-once check; checking and taking the continuation must happen under one lock",
        section: "A flag needs a lock")
    static let completionNeverReturns = reading.lesson(
        "the wrapper's completion handler never returned",
        "the SDK called the completion, and it is still running: something in it waits for ever (a lock it already holds, say)",
        section: "Resume once, ignore the rest")
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
        "the process running this scenario died before the scenario ended; the next issue says what the runtime reported (a continuation resumed twice traps, and so does a force unwrap of nil or an `unowned` reference to an object that is gone)",
        section: "Resume once, ignore the rest")
}

/// Starts `service.login()` in a task and returns once the SDK has seen login number `count`.
private func startLogin(
    _ service: LoginService, on sdk: SocialLoginSDK, number count: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> Task<LoginToken, any Error> {
    let task = Task { try await service.login() }
    // A retry may drop the first login's continuation while this waits (the exercise does):
    // the runtime's report of that leak says nothing about whether the SDK was asked.
    await awaitResult(
        of: { await sdk.loginRequests.reach(count) }, orRecord: Bugs.neverAsksTheSDK, endsOnLeak: false,
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

/// Records a lesson if the SDK was asked to log in more often than `expected` (one per login() call).
private func expectSDKAsked(
    _ expected: Int, on sdk: SocialLoginSDK, sourceLocation: SourceLocation = #_sourceLocation
) {
    let asked = sdk.loginRequests.value
    if asked > expected {
        Bugs.asksTheSDKAgain.record(
            "\(expected) call(s) to login() asked the SDK to log in \(asked) times.", sourceLocation: sourceLocation)
    }
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

/// The lesson for a child process that died: `lesson`, unless the runtime says the process
/// died reading an `unowned` reference to a service that was already gone.
func lessonForCrash(in log: CrashLog, otherwise lesson: Lesson) -> Lesson {
    log.contents.contains("unowned reference") ? Bugs.releasedServiceCrashes : lesson
}

private func isSuperseded(_ result: Result<LoginToken, any Error>?) -> Bool {
    guard case .failure(let error)? = result else { return false }
    return error as? LoginAttemptError == .superseded
}

private func isCancellation(_ result: Result<LoginToken, any Error>) -> Bool {
    guard case .failure(let error) = result else { return false }
    return error is CancellationError
}

/// How a login ended, in words for a failure message.
private func describe(_ result: Result<LoginToken, any Error>) -> String {
    switch result {
    case .success(let token): "returned the token \"\(token.value)\""
    case .failure(let error): "threw \(error)"
    }
}

/// The scenarios as values, each run in a child process of its own, or, in CI's repeated runs,
/// all of them in one (`SharedChild`).
private enum LoginCase: String, ChildScenario, CaseIterable {
    case approvedLogin, deniedLogin, loginsOneAfterTheOther, retryFinishesTheFirstCaller, lateCallbackIsIgnored,
        lateCallbackBeforeTheRetryIsDecided, cancellationResumesTheCaller, answerAndCancellationTogether,
        loginCancelledBeforeItStarts, completionAfterTheServiceIsGone

    /// What a crash in this scenario most likely means.
    var crashLesson: Lesson {
        switch self {
        case .approvedLogin, .deniedLogin, .retryFinishesTheFirstCaller, .cancellationResumesTheCaller,
            .loginCancelledBeforeItStarts, .completionAfterTheServiceIsGone:
            Bugs.crashed
        case .loginsOneAfterTheOther: Bugs.finishedLoginResumedAgain
        case .lateCallbackIsIgnored, .lateCallbackBeforeTheRetryIsDecided: Bugs.lateCallbackResumesTwice
        case .answerAndCancellationTogether: Bugs.answerAndCancelResumeTwice
        }
    }

    /// Plays the scenario; `log` is the child's, whose standard error it may quote.
    func run(log: CrashLog) async {
        switch self {
        case .approvedLogin:
            let sdk = SocialLoginSDK()
            let login = await startLogin(LoginService(sdk: sdk), on: sdk, number: 1)
            sdk.userApproves(LoginToken("alice"))
            let result = await outcome(of: login, orRecord: Bugs.neverResumes)
            #expect(result?.value == LoginToken("alice"), Bugs.wrongOutcome.comment)
            expectSDKAsked(1, on: sdk)
        case .deniedLogin:
            let sdk = SocialLoginSDK()
            let login = await startLogin(LoginService(sdk: sdk), on: sdk, number: 1)
            sdk.userDenies()
            let result = await outcome(of: login, orRecord: Bugs.neverResumes)
            #expect(throws: SocialLoginError.userDenied, Bugs.wrongOutcome.comment) { try result?.get() }
            expectSDKAsked(1, on: sdk)
        case .loginsOneAfterTheOther:
            let sdk = SocialLoginSDK()
            let service = LoginService(sdk: sdk)
            let first = await startLogin(service, on: sdk, number: 1)
            sdk.userApproves(LoginToken("alice"))
            let firstResult = await outcome(of: first, orRecord: Bugs.neverResumes)
            #expect(firstResult?.value == LoginToken("alice"), Bugs.wrongOutcome.comment)

            // The user logs out and in again, with the same service.
            let second = await startLogin(service, on: sdk, number: 2)
            sdk.userApproves(LoginToken("bob"))
            let secondResult = await outcome(of: second, orRecord: Bugs.neverResumes)
            #expect(secondResult?.value == LoginToken("bob"), Bugs.wrongOutcome.comment)
            expectSDKAsked(2, on: sdk)
        case .retryFinishesTheFirstCaller:
            let sdk = SocialLoginSDK(whenSuperseded: .drop)
            let (first, retried) = await loginThenRetry(on: sdk, approving: LoginToken("bob"))
            #expect(retried?.value == LoginToken("bob"), Bugs.wrongOutcome.comment)
            expectSDKAsked(2, on: sdk)
            // The SDK dropped the first completion: only the wrapper can still end that call.
            let firstOutcome = await withinHangLimit { try await first.value }
            switch firstOutcome {
            case .finished(let firstResult):
                if !isSuperseded(firstResult) {
                    Bugs.wrongOutcome.record(
                        "The first login() \(describe(firstResult)), not LoginAttemptError.superseded.")
                }
            case .stillSuspended:
                // Say what the runtime said, or that it said nothing.
                Bugs.retryLeaksFirstCaller.record(
                    log.contents.contains("leaked its continuation")
                        ? "The first login() is still suspended after \(hangLimit), and the runtime printed "
                            + "\"leaked its continuation\": its continuation was released without being resumed."
                        : "The first login() is still suspended after \(hangLimit), and the runtime printed no "
                            + "leak warning: either something still holds the continuation and will never resume "
                            + "it, or an unsafe continuation silenced the warning without fixing the leak.")
            }
        case .lateCallbackIsIgnored:
            let sdk = SocialLoginSDK(whenSuperseded: .keepForLateDelivery)
            let (_, retried) = await loginThenRetry(on: sdk, approving: LoginToken("carol"))
            #expect(retried?.value == LoginToken("carol"), Bugs.wrongOutcome.comment)

            // Now the SDK calls the first login's completion, late.
            sdk.deliverLateCallbacks(.success(LoginToken("stale")))
            await awaitResult(
                of: { await sdk.callbacksDelivered.reach(2) }, orRecord: Bugs.completionNeverReturns)
        case .lateCallbackBeforeTheRetryIsDecided:
            let sdk = SocialLoginSDK(whenSuperseded: .keepForLateDelivery)
            let service = LoginService(sdk: sdk)
            _ = await startLogin(service, on: sdk, number: 1)
            sdk.userReturnsWithoutDeciding()
            let retry = await startLogin(service, on: sdk, number: 2)

            // The first login's completion arrives while the user is still in the other app
            // with the retry. The wrapper has run it once this count reaches 1.
            sdk.deliverLateCallbacks(.success(LoginToken("stale")))
            await awaitResult(
                of: { await sdk.callbacksDelivered.reach(1) }, orRecord: Bugs.completionNeverReturns)

            // Only now does the user decide on the retry; wait until the wrapper has run
            // that completion too, so that a wrapper that resumes twice shows it every time.
            sdk.userApproves(LoginToken("erin"))
            await awaitResult(
                of: { await sdk.callbacksDelivered.reach(2) }, orRecord: Bugs.completionNeverReturns)
            let retried = await outcome(of: retry, orRecord: Bugs.neverResumes)
            if retried?.value == LoginToken("stale") {
                Bugs.lateCallbackCompletesRetry.record(
                    "The retry returned \"stale\", the first login's late answer, instead of \"erin\", "
                        + "the answer the user gave to the retry.")
            } else if let retried, retried.value != LoginToken("erin") {
                Bugs.wrongOutcome.record("The retry \(describe(retried)), not the token \"erin\".")
            }
        case .cancellationResumesTheCaller:
            let sdk = SocialLoginSDK()
            let login = await startLogin(LoginService(sdk: sdk), on: sdk, number: 1)
            login.cancel()
            let result = await outcome(of: login, orRecord: Bugs.cancelledCallerStaysSuspended)
            if let result {
                #expect(throws: CancellationError.self, Bugs.wrongOutcome.comment) { try result.get() }
            }
            expectSDKAsked(1, on: sdk)
        case .answerAndCancellationTogether:
            // The user approves in the other app, on a thread of its own, while the awaiting
            // task is cancelled here: nothing orders the two endings, and the loser must find
            // the attempt finished and do nothing. Rounds differ in which comes first; many
            // rounds give `workbook check 02 --race` (Thread Sanitizer) both orders to see.
            for round in 1...raceRounds() {
                let sdk = SocialLoginSDK()
                let login = await startLogin(LoginService(sdk: sdk), on: sdk, number: 1)
                let token = LoginToken("round \(round)")
                DispatchQueue.global().async { sdk.userApproves(token) }
                login.cancel()
                guard let result = await outcome(of: login, orRecord: Bugs.neverResumes) else { return }
                if result.value != token, !isCancellation(result) {
                    Bugs.wrongOutcome.record(
                        "In round \(round), login() \(describe(result)), neither the token \"\(token.value)\" nor CancellationError."
                    )
                    return
                }
                // Let the answer reach the wrapper before the next round, so both endings happen.
                _ = await withinHangLimit { await sdk.callbacksDelivered.reach(1) }
            }
        case .loginCancelledBeforeItStarts:
            let sdk = SocialLoginSDK()
            let service = LoginService(sdk: sdk)
            // A login the user is deciding on in the other app.
            let pending = await startLogin(service, on: sdk, number: 1)

            // Another login() is called from a task that is already cancelled (say, a
            // screen that went away before its "Log in" action ran).
            let cancelled = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await service.login()
            }
            if let result = await outcome(of: cancelled, orRecord: Bugs.cancelledBeforeStart),
                !isCancellation(result)
            {
                Bugs.cancelledBeforeStart.record(
                    "The cancelled login() \(describe(result)), not CancellationError.")
            }
            let asked = sdk.loginRequests.value
            if asked != 1 {
                Bugs.cancelledBeforeStart.record(
                    "The SDK was asked to log in \(asked) times: once for the login the user is deciding on, "
                        + "and again for the cancelled one.")
            }

            // The user approves in the other app: the login that was waiting gets the token.
            sdk.userApproves(LoginToken("dave"))
            let pendingOutcome = await withinHangLimit { try await pending.value }
            switch pendingOutcome {
            case .finished(let result) where result.value == LoginToken("dave"):
                break
            case .finished(let result) where isSuperseded(result):
                Bugs.cancelledBeforeStart.record(
                    "The login the user was deciding on ended as superseded: the cancelled login() replaced it."
                )
            case .finished(let result):
                Bugs.wrongOutcome.record(
                    "The login the user was deciding on \(describe(result)), not the token \"dave\".")
            case .stillSuspended:
                Bugs.cancelledBeforeStart.record(
                    "The user approved the login that was waiting, but it is still suspended after \(hangLimit): "
                        + "the cancelled login() took its place.")
            }
        case .completionAfterTheServiceIsGone:
            let sdk = SocialLoginSDK()
            var service: LoginService? = LoginService(sdk: sdk)
            // The task holds the service only while login() runs; the test holds the rest.
            let login = Task { [weak service] in try await service!.login() }
            await awaitResult(of: { await sdk.loginRequests.reach(1) }, orRecord: Bugs.neverAsksTheSDK)

            // The login screen goes away: its task is cancelled and its service released...
            login.cancel()
            let result = await outcome(of: login, orRecord: Bugs.cancelledCallerStaysSuspended)
            if let result {
                #expect(throws: CancellationError.self, Bugs.wrongOutcome.comment) { try result.get() }
            }
            service = nil

            // ...but the user still decides in the other app, and the SDK calls the completion.
            sdk.userApproves(LoginToken("frank"))
            await awaitResult(
                of: { await sdk.callbacksDelivered.reach(1) }, orRecord: Bugs.completionNeverReturns)
            _ = service
        }
    }

    /// Runs this scenario in a child process, and explains a trap there.
    func runInChildProcess(sourceLocation: SourceLocation = #_sourceLocation) async {
        if await Self.sharedChild.ranShared(self, crash: crashLesson, sourceLocation: sourceLocation) { return }
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, Bugs.crashed.comment, sourceLocation: sourceLocation) {
                [log = log as CrashLog, scenario = self as LoginCase] in
                await log.runScenario { await scenario.run(log: log) }
            }
        }
        log.explain(run, as: lessonForCrash(in: log, otherwise: crashLesson), sourceLocation: sourceLocation)
    }

    /// In CI's repeated runs, one child process runs every scenario.
    static let sharedChild = SharedChild<LoginCase> { log, scenarios in
        await #expect(processExitsWith: .success, SharedChild<LoginCase>.launchComment) {
            [log = log as CrashLog, scenarios = scenarios as [LoginCase]] in
            await log.runScenarios(scenarios) { await $0.run(log: log) }
        }
    }
}

@Suite("Chapter 02: continuation misuse in a social-login wrapper")
struct LoginServiceTests {
    // Each scenario runs in a child process (an exit test): a double resume traps, and the
    // trap must end only that scenario.

    @Test("The user approves: login() returns the token")
    func approvedLogin() async {
        await LoginCase.approvedLogin.runInChildProcess()
    }

    @Test("The user refuses: login() throws the SDK's error")
    func deniedLogin() async {
        await LoginCase.deniedLogin.runInChildProcess()
    }

    @Test("Two logins one after the other: each returns its own token")
    func loginsOneAfterTheOther() async {
        await LoginCase.loginsOneAfterTheOther.runInChildProcess()
    }

    @Test(
        "The user returns without deciding and retries: the first login() ends as superseded",
        .exposesBug(Bugs.retryLeaksFirstCaller))
    func retryFinishesTheFirstCaller() async {
        await LoginCase.retryFinishesTheFirstCaller.runInChildProcess()
    }

    @Test(
        "A late callback for a superseded login is ignored: no crash, no second resume",
        .exposesBug(Bugs.lateCallbackResumesTwice, Bugs.crashed))
    func lateCallbackIsIgnored() async {
        await LoginCase.lateCallbackIsIgnored.runInChildProcess()
    }

    @Test(
        "A late callback that arrives before the user decides on the retry does not complete the retry",
        .exposesBug(Bugs.lateCallbackCompletesRetry, Bugs.lateCallbackResumesTwice, Bugs.crashed))
    func lateCallbackBeforeTheRetryIsDecided() async {
        await LoginCase.lateCallbackBeforeTheRetryIsDecided.runInChildProcess()
    }

    @Test(
        "Cancelling the task that awaits login() resumes it with CancellationError",
        .exposesBug(Bugs.cancelledCallerStaysSuspended))
    func cancellationResumesTheCaller() async {
        await LoginCase.cancellationResumesTheCaller.runInChildProcess()
    }

    @Test("The user answers just as the awaiting task is cancelled: login() ends once, with one of the two")
    func answerAndCancellationTogether() async {
        await LoginCase.answerAndCancellationTogether.runInChildProcess()
    }

    @Test(
        "A login() whose task is already cancelled ends at once, and neither opens the other app nor ends the pending login",
        .exposesBug(Bugs.cancelledBeforeStart))
    func loginCancelledBeforeItStarts() async {
        await LoginCase.loginCancelledBeforeItStarts.runInChildProcess()
    }

    @Test(
        "A completion that arrives after the LoginService is gone is ignored",
        .exposesBug(Bugs.cancelledCallerStaysSuspended))
    func completionAfterTheServiceIsGone() async {
        await LoginCase.completionAfterTheServiceIsGone.runInChildProcess()
    }
}
