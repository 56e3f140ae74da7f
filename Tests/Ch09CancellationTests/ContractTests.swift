import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch09CancellationSolution
#else
    import Ch09Cancellation
#endif

// Chapter 09's contract, explored on its own: a cancel after every observable step (each
// request start, each resize step) and a failure of every request, for both styles. Each
// failure names the lesson and adds a reproducer: the steps, the cancel or failure point.

private let ids = ["a", "b"]

/// A service whose request starts and resize steps are the probe's steps.
private func probedService(_ probe: StepProbe) -> ThumbnailService {
    let service = ThumbnailService()
    let resizing = Locked("")
    service.onRequestStart { request in
        resizing.withLock { $0 = request.id }
        probe.step("request \(request.kind.rawValue) \"\(request.id)\" starts")
    }
    service.onResizeStep { step in probe.step("resize step \(step) of \"\(resizing.withLock { $0 })\"") }
    return service
}

/// What every cancel point must keep, in both styles: no request starts after the cancel,
/// and a resize goes on for at most one step ("at most one step after its task is cancelled").
private func stepsKept(_ run: CancelPointRun<[Thumbnail]>, in function: String) -> [Violation] {
    var violations: [Violation] = []
    let requests = run.stepsAfterCancel.filter { $0.hasPrefix("request") }
    if !requests.isEmpty {
        violations.append(
            Violation(Bugs.requestAfterCancel, "\(function): after the cancel, these requests started: \(requests)"))
    }
    let resizes = run.stepsAfterCancel.filter { $0.hasPrefix("resize") }
    if resizes.count > 1 {
        violations.append(
            Violation(Bugs.resizeIgnoresCancel, "\(function): after the cancel, \(resizes.count) resize steps ran"))
    }
    return violations
}

/// The ids whose resize ran to its last step in `steps`: the thumbnails that were finished.
private func finishedIds(_ steps: [String]) -> [String] {
    ids.filter { id in steps.contains("resize step \(resizeStepCount) of \"\(id)\"") }
}

@Suite("Chapter 09: the contract at every cancel point and every failure point")
struct CancellationContractTests {
    @Test(
        "fetchThumbnails, cancelled before the call or after any step, throws a cancel and starts nothing new",
        .exposesBug(Bugs.requestAfterCancel, Bugs.resizeIgnoresCancel, Bugs.cancelNotThrown))
    func styleOneAtEveryCancelPoint() async {
        let report = await exploreCancelPoints(
            "fetchThumbnails(for: [\"a\", \"b\"])", world: probedService,
            operation: { try await fetchThumbnails(for: ids, from: $0) }
        ) { run, _ in
            guard let result = run.outcome else { return [Violation(Bugs.neverReturns, describeOutcome(run.outcome))] }
            let all = ids.map(fullyResized)
            let seen = "fetchThumbnails: \(outcome(result))"
            var violations = stepsKept(run, in: "fetchThumbnails")
            switch (run.cancelAfter, result) {
            case (nil, .success(all)):
                break
            case (.some, .failure(let error)) where isCancellation(error):
                break
            // Cancelled during its very last step, the work is done: returning it is allowed too.
            case (let point?, .success(all)) where point > 0 && point == run.steps.count:
                break
            case (_, .success(let thumbnails)) where thumbnails.contains { $0 != fullyResized($0.id) }:
                violations.append(Violation(Bugs.halfResized, seen))
            case (nil, _):
                violations.append(Violation(Bugs.wrongThumbnails, seen))
            default:
                violations.append(Violation(Bugs.cancelNotThrown, seen))
            }
            return violations
        }
        report.record()
    }

    @Test(
        "fetchThumbnailsUntilCancelled, cancelled before the call or after any step, returns what it finished",
        .exposesBug(
            Bugs.requestAfterCancel, Bugs.resizeIgnoresCancel, Bugs.urlCancelMissed, Bugs.partialNotReturned))
    func styleTwoAtEveryCancelPoint() async {
        let report = await exploreCancelPoints(
            "fetchThumbnailsUntilCancelled(for: [\"a\", \"b\"])", world: probedService,
            operation: { try await fetchThumbnailsUntilCancelled(for: ids, from: $0) }
        ) { run, _ in
            guard let result = run.outcome else { return [Violation(Bugs.neverReturns, describeOutcome(run.outcome))] }
            // Finished means resized to the last step, whether the cancel came before or after.
            let finished = finishedIds(run.steps)
            let seen =
                "fetchThumbnailsUntilCancelled: \(outcome(result)); expected [\(finished.map { "\"\($0)\"" }.joined(separator: ", "))]"
            var violations = stepsKept(run, in: "fetchThumbnailsUntilCancelled")
            switch result {
            case .success(let thumbnails) where thumbnails == finished.map(fullyResized):
                break
            case .success(let thumbnails) where thumbnails.contains { $0 != fullyResized($0.id) }:
                violations.append(Violation(Bugs.halfResized, seen))
            case .failure(let error) where !(error is CancellationError) && isCancellation(error):
                violations.append(Violation(Bugs.urlCancelMissed, seen))
            default:
                violations.append(Violation(run.isBaseline ? Bugs.wrongThumbnails : Bugs.partialNotReturned, seen))
            }
            return violations
        }
        report.record()
    }

    @Test(
        "Whichever request fails, both styles throw its error, start nothing after it, and work again on the next call")
    func bothStylesAtEveryFailurePoint() async {
        for style in [("fetchThumbnails", false), ("fetchThumbnailsUntilCancelled", true)] {
            let (name, untilCancelled) = style
            let report = await exploreFailurePoints(
                "\(name)(for: [\"a\", \"b\"])",
                world: { plan in
                    let service = ThumbnailService()
                    service.failRequests(per: plan)
                    return service
                },
                operation: { service in
                    untilCancelled
                        ? try await fetchThumbnailsUntilCancelled(for: ids, from: service)
                        : try await fetchThumbnails(for: ids, from: service)
                }
            ) { run, _ in
                guard let result = run.outcome, let recovery = run.recovery else {
                    return [Violation(Bugs.neverReturns, describeOutcome(run.outcome))]
                }
                var violations: [Violation] = []
                if let failing = run.failingCall {
                    guard case .failure(let error) = result, error is ThumbnailServiceError else {
                        return [Violation(Bugs.failureSwallowed, "\(name): \(outcome(result))")]
                    }
                    if run.calls.count != failing {
                        violations.append(
                            Violation(
                                Bugs.wrongThumbnails,
                                "\(name): after the failed request, the requests \(run.calls) started"))
                    }
                } else if result.value != ids.map(fullyResized) {
                    violations.append(Violation(Bugs.wrongThumbnails, "\(name) without a failure: \(outcome(result))"))
                }
                if recovery.value != ids.map(fullyResized) {
                    violations.append(
                        Violation(Bugs.wrongThumbnails, "\(name), called again with no failure: \(outcome(recovery))"))
                }
                return violations
            }
            report.record()
        }
    }
}
