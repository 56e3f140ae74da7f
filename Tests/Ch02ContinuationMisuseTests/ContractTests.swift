import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch02ContinuationMisuseSolution
#else
    import Ch02ContinuationMisuse
#endif

// Chapter 02's contract (the reading's "Your task"), explored on its own: one login with the
// caller cancelled before the call, while the user is in the other app, just after the user
// answers, and after the answer has reached the wrapper; logins one after another, each one
// refused in turn, then made again; and sequences of logins, answers, cancels and late
// callbacks from fixed seeds against a model.
//
// Every exploration runs in a child process (an exit test): a wrapper that resumes twice
// traps, and the trap ends only that child. The child notes each run it starts on standard
// error, so a trap's message names the run it happened in.

/// How one login() ended, comparable with the contract's.
enum LoginEnd: Sendable, Equatable, CustomStringConvertible {
    case token(String)
    case denied
    case superseded
    case cancelled
    case other(String)
    case suspended

    init(_ outcome: Result<LoginToken, any Error>?) {
        switch outcome {
        case .success(let token)?: self = .token(token.value)
        case .failure(let error as SocialLoginError)? where error == .userDenied: self = .denied
        case .failure(let error as LoginAttemptError)? where error == .superseded: self = .superseded
        case .failure(is CancellationError)?: self = .cancelled
        case .failure(let error)?: self = .other("\(error)")
        case nil: self = .suspended
        }
    }

    var description: String {
        switch self {
        case .token(let token): "returned the token \"\(token)\""
        case .denied: "threw SocialLoginError.userDenied"
        case .superseded: "threw LoginAttemptError.superseded"
        case .cancelled: "threw CancellationError"
        case .other(let error): "threw \(error)"
        case .suspended: "was still suspended after \(hangLimit)"
        }
    }
}

/// In the child: notes on standard error the run about to start, so that a trap names it.
private func announce(_ run: String) {
    FileHandle.standardError.write(Data("\(runMarker)\(run)\n".utf8))
}

private let runMarker = "[contract run] "

/// A part of the contract, run in a child process of its own (see ``inChild(_:crash:)``).
enum ContractPart: String, ChildScenario, CaseIterable {
    case cancelPoints, refusals, sequences

    /// In the child: runs this part's explorations and records what they found.
    func run() async {
        switch self {
        case .cancelPoints:
            await exploreCancels(.approves)
            await exploreCancels(.refuses)
        case .refusals:
            await exploreRefusals()
        case .sequences:
            await sequenceCheck.explore().record()
        }
    }
}

/// Runs `part` in a child process, and explains a trap there (naming the run it happened in).
private func inChild(_ part: ContractPart, crash: Lesson, sourceLocation: SourceLocation = #_sourceLocation) async {
    if await sharedChild.ranShared(part, crash: crash, sourceLocation: sourceLocation) { return }
    let log = CrashLog()
    let run = await offThePool {
        await #expect(processExitsWith: .success, crash.comment, sourceLocation: sourceLocation) {
            [log = log as CrashLog, part = part as ContractPart] in
            await log.runScenario { await part.run() }
        }
    }
    let last = log.contents.split(separator: "\n").last { $0.hasPrefix(runMarker) }
        .map { String($0.dropFirst(runMarker.count)) }
    log.explain(
        run, as: lessonForCrash(in: log, otherwise: crash),
        detail: last.map { "  The process ended during this run: \($0)." }, sourceLocation: sourceLocation)
}

/// In CI's repeated runs, one child process runs every part (see `SharedChild`).
private let sharedChild = SharedChild<ContractPart> { log, parts in
    await #expect(processExitsWith: .success, SharedChild<ContractPart>.launchComment) {
        [log = log as CrashLog, parts = parts as [ContractPart]] in
        await log.runScenarios(parts) { await $0.run() }
    }
}

/// Names the runs of an every-cancel-point exploration in the order it makes them: the run
/// without a cancel first, then cancel points 0, 1, 2, and so on.
final class CancelPointNames: Sendable {
    private let made = Locked(0)

    func next() -> String {
        let run = made.withLock { made in
            made += 1
            return made
        }
        return run == 1 ? "without a cancel" : "cancel point \(run - 2)"
    }
}

/// What the user does in the other app.
enum UserAnswer: String, Sendable {
    case approves, refuses

    func play(on sdk: SocialLoginSDK, token: String) {
        self == .approves ? sdk.userApproves(LoginToken(token)) : sdk.userDenies()
    }

    func expected(token: String) -> LoginEnd { self == .approves ? .token(token) : .denied }
}

/// One login's world: the SDK, the service, and what has happened so far.
struct OneLogin: Sendable {
    let sdk: SocialLoginSDK
    let service: LoginService
    /// 1 once the caller's login() has returned or thrown.
    let ended = ObservedCount()
    /// 1 once the user has answered and the SDK has called the completion.
    let userDone = ObservedCount()
}

/// Every cancel point of one login the user answers: before the call (point 0), while the
/// user is in the other app (1: the user answers only after login() has ended), and as the
/// user answers (2: the cancel and the answer race, and either may end the call).
private func exploreCancels(_ answer: UserAnswer) async {
    let scenario = "one login(), the user \(answer.rawValue) in the other app"
    let points = CancelPointNames()
    let report = await exploreCancelPoints(
        scenario,
        world: { probe in
            announce("\(scenario), \(points.next())")
            let sdk = SocialLoginSDK()
            let world = OneLogin(sdk: sdk, service: LoginService(sdk: sdk))
            Task {
                await sdk.loginRequests.reach(1)
                probe.step("login() opens the other app (the SDK's login(completion:))")
                // Cancelled while the user is in the other app: the user answers after login() ended.
                if probe.cancelMade { await world.ended.reach(1) }
                // Noted before the answer, so that the step comes before login() returns.
                probe.step("the user \(answer.rawValue) (the SDK is about to call the completion)")
                answer.play(on: sdk, token: "alice")
                await sdk.callbacksDelivered.reach(1)
                world.userDone.increment()
            }
            return world
        },
        operation: { world in
            defer { world.ended.increment() }
            return try await world.service.login()
        }
    ) { run, world in
        await checkOneLogin(run, world, expected: answer.expected(token: "alice"))
    }
    report.record()
}

/// The contract of one login at one cancel point.
private func checkOneLogin(_ run: CancelPointRun<LoginToken>, _ world: OneLogin, expected: LoginEnd) async
    -> [Violation]
{
    let end = LoginEnd(run.outcome)
    let asked = world.sdk.loginRequests.value
    var violations: [Violation] = []
    switch run.cancelAfter {
    case nil where end != expected:
        violations.append(
            Violation(
                end == .suspended ? Bugs.neverResumes : Bugs.wrongOutcome, "login() \(end), expected: \(expected)"))
    case 0?:
        if end != .cancelled {
            violations.append(Violation(Bugs.cancelledBeforeStart, "login() \(end), expected: \(LoginEnd.cancelled)"))
        }
        if asked > 0 {
            violations.append(
                Violation(Bugs.cancelledBeforeStart, "the cancelled login() asked the SDK to log in \(asked) time(s)"))
        }
    case 1? where end != .cancelled:
        let lesson = end == .suspended ? Bugs.cancelledCallerStaysSuspended : Bugs.wrongOutcome
        violations.append(Violation(lesson, "login() \(end), expected: \(LoginEnd.cancelled)"))
    case let point? where point > 1 && end != expected && end != .cancelled:
        // The answer came first: the reading leaves open which of the two the caller gets.
        violations.append(
            Violation(
                end == .suspended ? Bugs.neverResumes : Bugs.wrongOutcome,
                "login() \(end), expected: \(expected) or \(LoginEnd.cancelled)"))
    default:
        break
    }
    if asked > 1 {
        violations.append(Violation(Bugs.asksTheSDKAgain, "1 call to login() asked the SDK to log in \(asked) times"))
    }
    // The user's answer reaches the wrapper, maybe after login() ended: its completion must return.
    if asked > 0, end != .suspended,
        case .stillSuspended = await withinHangLimit(hangLimit, { await world.userDone.reach(1) })
    {
        violations.append(
            Violation(Bugs.completionNeverReturns, "the SDK's completion was still running after \(hangLimit)"))
    }
    return violations
}

/// Every failure point of two logins one after the other, where the failing login is the
/// one the user refuses: that login throws the SDK's error, and the same two logins made
/// again on the same service return the user's answers (no refusal is replayed).
private func exploreRefusals() async {
    let scenario = "two logins one after the other, the user refusing one of them"
    let report = await exploreFailurePoints(
        scenario,
        world: { plan in
            announce(
                "\(scenario), "
                    + (plan.failingCall.map { "the user refusing login \($0)" } ?? "the user approving both"))
            let sdk = SocialLoginSDK()
            Task {
                for number in 1...4 {
                    await sdk.loginRequests.reach(number)
                    let refuses = plan.nextCallFails("login \(number): the user refuses")
                    (refuses ? UserAnswer.refuses : .approves).play(on: sdk, token: "user \(number)")
                }
            }
            return OneLogin(sdk: sdk, service: LoginService(sdk: sdk))
        },
        operation: { (world: OneLogin) in
            [try await world.service.login().value, try await world.service.login().value]
        }
    ) { run, world in
        guard run.outcome != nil, run.recovery != nil else {
            return [Violation(Bugs.neverResumes, "the logins were still suspended after \(hangLimit)")]
        }
        var violations: [Violation] = []
        let first = (try? run.outcome?.get()) ?? []
        let made = run.failingCall ?? 2
        if let failing = run.failingCall {
            let end: LoginEnd
            switch run.outcome {
            case .failure(let error)?: end = LoginEnd(.failure(error))
            case .success(let tokens)?: end = LoginEnd(.success(LoginToken(tokens.first ?? "")))
            case nil: end = .suspended
            }
            if end != .denied {
                violations.append(Violation(Bugs.wrongOutcome, "login \(failing) \(end), expected: \(LoginEnd.denied)"))
            }
        } else if first != ["user 1", "user 2"] {
            let outcome = describeOutcome(run.outcome)
            violations.append(Violation(Bugs.wrongOutcome, "the user approving both: \(outcome)"))
        }
        let again = ["user \(made + 1)", "user \(made + 2)"]
        if (try? run.recovery?.get()) != again {
            let recovery = describeOutcome(run.recovery)
            violations.append(
                Violation(Bugs.wrongOutcome, "made again, the user approving both: \(recovery), expected: \(again)"))
        }
        let asked = world.sdk.loginRequests.value
        let total = made + 2
        if asked != total {
            violations.append(
                Violation(Bugs.asksTheSDKAgain, "\(total) call(s) to login() asked the SDK to log in \(asked) times"))
        }
        return violations
    }
    report.record()
}

/// One step of a sequence.
enum LoginStep: String, Sendable, CaseIterable, CustomStringConvertible {
    case login, approve, refuse, cancel, late

    var description: String {
        switch self {
        case .login: "call login() (a new login; a pending one is superseded)"
        case .approve: "the user approves the newest login in the other app"
        case .refuse: "the user refuses the newest login in the other app"
        case .cancel: "cancel the task of the newest login()"
        case .late: "the SDK calls every superseded completion it kept, late"
        }
    }
}

/// What one step showed: the logins that ended in it, and the SDK's count of login requests.
struct LoginStepObservation: Sendable, Equatable, CustomStringConvertible {
    var ended: [String] = []
    var requests = 0
    var description: String {
        (ended.isEmpty ? "no login ended" : ended.joined(separator: "; ")) + ", \(requests) SDK login(s)"
    }
}

/// The contract as a model. Only the newest login can be pending: a new one supersedes it.
struct LoginModel: Sendable {
    var callers = 0
    var pending: Int?
    /// The caller whose completion the SDK holds as current (it may have ended already).
    var sdkCurrent: Int?
    var kept = 0
    var delivered = 0

    /// Applies `step`; returns which callers end in it, and how.
    mutating func apply(_ step: LoginStep) -> [(Int, LoginEnd)] {
        switch step {
        case .login:
            callers += 1
            defer { pending = callers }
            if sdkCurrent != nil { kept += 1 }
            sdkCurrent = callers
            return pending.map { [($0, .superseded)] } ?? []
        case .approve, .refuse:
            guard let current = sdkCurrent else { return [] }
            sdkCurrent = nil
            delivered += 1
            guard pending == current else { return [] }
            pending = nil
            return [(current, step == .approve ? .token("token \(delivered)") : .denied)]
        case .cancel:
            defer { pending = nil }
            return pending.map { [($0, .cancelled)] } ?? []
        case .late:
            delivered += kept
            kept = 0
            return []
        }
    }
}

private func describeEnds(_ ends: [(Int, LoginEnd)]) -> [String] {
    ends.map { "login \($0.0) \($0.1)" }
}

/// Logins, answers, cancels and late callbacks on one service, against the model; after the
/// last step, the login still pending (if any) is cancelled, and its end is part of that step.
private let sequenceCheck = ModelCheck<LoginStep, LoginStepObservation>(
    "logins, answers, cancels and late callbacks on one LoginService", lesson: Bugs.wrongOutcome, length: 6,
    generate: { random in random.pick(LoginStep.allCases) },
    simplify: { _ in [] },
    real: { steps in
        announce("a sequence: \(steps.map(\.rawValue).joined(separator: ", "))")
        let sdk = SocialLoginSDK(whenSuperseded: .keepForLateDelivery)
        let service = LoginService(sdk: sdk)
        var model = LoginModel()
        var tasks: [Int: Task<LoginToken, any Error>] = [:]
        var observations: [LoginStepObservation] = []
        for (index, step) in (steps + [.cancel]).enumerated() {
            let newest = model.callers
            let ends = model.apply(step)
            switch step {
            case .login:
                tasks[model.callers] = Task { try await service.login() }
                let callers = model.callers
                _ = await withinHangLimit { await sdk.loginRequests.reach(callers) }
            case .approve: sdk.userApproves(LoginToken("token \(model.delivered)"))
            case .refuse: sdk.userDenies()
            case .cancel: tasks[newest]?.cancel()
            case .late: sdk.deliverLateCallbacks(.success(LoginToken("stale")))
            }
            let delivered = model.delivered
            _ = await withinHangLimit { await sdk.callbacksDelivered.reach(delivered) }
            var observation = LoginStepObservation()
            for (caller, _) in ends {
                let end: LoginEnd
                guard let task = tasks[caller] else { continue }
                switch await withinHangLimit(hangLimit, { try await task.value }) {
                case .finished(let result): end = LoginEnd(result)
                case .stillSuspended: end = .suspended
                }
                observation.ended += describeEnds([(caller, end)])
            }
            observation.requests = sdk.loginRequests.value
            if index < steps.count {
                observations.append(observation)
            } else if !observations.isEmpty {
                observations[observations.count - 1].ended += observation.ended.map { "then \($0)" }
            }
            if observation.ended.contains(where: { $0.hasSuffix(LoginEnd.suspended.description) }) { break }
        }
        return observations
    },
    model: { steps in
        var model = LoginModel()
        var observations = steps.map { step in
            LoginStepObservation(ended: describeEnds(model.apply(step)), requests: model.callers)
        }
        let last = describeEnds(model.apply(.cancel)).map { "then \($0)" }
        if !observations.isEmpty { observations[observations.count - 1].ended += last }
        return observations
    })

@Suite("Chapter 02: the contract at every cancel point, every refusal, and in sequences against a model")
struct ContinuationMisuseContractTests {
    @Test(
        "One login, approved or refused, with the caller cancelled before the call, while the user decides, as the user answers, or never",
        .exposesBug(Bugs.cancelledBeforeStart, Bugs.cancelledCallerStaysSuspended))
    func oneLoginAtEveryCancelPoint() async {
        await inChild(.cancelPoints, crash: Bugs.crashed)
    }

    @Test("Two logins one after the other, each refused in turn, then made again: no refusal is replayed")
    func refusalsAreNotReplayed() async {
        await inChild(.refusals, crash: Bugs.crashed)
    }

    @Test(
        "Sequences of logins, answers, cancels and late callbacks end each login once, as the model says",
        .exposesBug(Bugs.wrongOutcome, Bugs.lateCallbackResumesTwice, Bugs.crashed))
    func sequencesAgainstTheModel() async {
        await inChild(.sequences, crash: Bugs.lateCallbackResumesTwice)
    }
}
