import Dispatch
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch02ContinuationMisuseSolution
#else
    import Ch02ContinuationMisuse
#endif

@Suite("Chapter 02: two endings at the same moment")
struct SimultaneousEndingTests {
    // The user's answer arrives from another thread while the awaiting task is cancelled on
    // this one: two threads try to finish the same attempt at once. A lock-protected
    // resume-once box lets exactly one of them win, every time. A plain flag usually does too,
    // which is why this race is invisible to ordinary tests: `workbook check 02 --race` runs
    // this scenario under Thread Sanitizer, which sees the two unsynchronized accesses.

    @Test("The user decides at the moment the task is cancelled: login() ends once, with one of the two")
    func answerAndCancellationTogether() async {
        let log = CrashLog()
        let run = await #expect(processExitsWith: .success, Bugs.crashed.comment) {
            [log = log as CrashLog] in
            await log.runScenario {
                for round in 1...raceRounds() {
                    let sdk = SocialLoginSDK()
                    let service = LoginService(sdk: sdk)
                    let login = Task { try await service.login() }
                    let asked = await awaitResult(
                        of: { await sdk.loginRequests.reach(1) }, orRecord: Bugs.neverAsksTheSDK)
                    guard asked != nil else { return }
                    let token = LoginToken("round-\(round)")
                    // The user approves in the other app, on a thread of its own, while the
                    // task is cancelled here: nothing orders the two endings. Rounds differ in
                    // which comes first; many rounds give Thread Sanitizer both orders to see.
                    DispatchQueue.global().async { sdk.userApproves(token) }
                    login.cancel()
                    let result = await awaitResult(
                        of: { try await login.value }, orRecord: Bugs.cancelledCallerStaysSuspended)
                    switch result {
                    case .success(let value)?:
                        #expect(value == token, Bugs.wrongOutcome.comment("round \(round): got \(value)"))
                    case .failure(let error)?:
                        #expect(error is CancellationError, Bugs.wrongOutcome.comment("round \(round): threw \(error)"))
                    case nil:
                        return
                    }
                    // Let the user's answer reach the wrapper before the next round, so that
                    // both endings of every round really happen.
                    _ = await withinHangLimit { await sdk.callbacksDelivered.reach(1) }
                }
            }
        }
        log.explain(run, as: Bugs.crashed)
    }
}
