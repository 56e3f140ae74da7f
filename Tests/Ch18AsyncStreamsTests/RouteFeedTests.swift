import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch18AsyncStreamsSolution
#else
    import Ch18AsyncStreams
#endif

/// How a consumer of the live route stops listening.
enum EarlyStop: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
    case cancelTheConsumingTask = "its task is cancelled"
    case breakOutOfTheLoop = "it breaks out of its loop"
    var testDescription: String { rawValue }
}

/// The scenarios that may trap (an onTermination that assumes the main actor), each run by
/// one test in a child process.
private enum LiveLinkScenario {
    static func linkClosesWhenTheConsumerStops(_ stop: EarlyStop) async {
        let device = BikeComputer()
        let tookAFix = ObservedCount()
        // Off the main actor, like a recorder's task; the stream is made in the loop's header,
        // so that only this loop holds it.
        let consumer = Task.detached {
            for await _ in await routeFixes(from: device) {
                tookAFix.increment()
                if stop == .breakOutOfTheLoop { break }
            }
        }
        guard await awaitResult(of: { await device.starts.reach(1) }, orRecord: Bugs.liveFixesLost) != nil else {
            return
        }
        await device.recordFix()
        guard await awaitResult(of: { await tookAFix.reach(1) }, orRecord: Bugs.liveFixesLost) != nil else { return }
        if stop == .cancelTheConsumingTask { consumer.cancel() }  // from this task, off the main actor
        await awaitResult(of: { await consumer.value }, orRecord: Bugs.liveLinkLeftOpen)

        // The link must close without waiting for another fix to come.
        if case .stillSuspended = await withinHangLimit(hangLimit, { await device.liveLinks.fall(to: 0) }) {
            Bugs.liveLinkLeftOpen.record(
                "The consumer took fix #1, then \(stop == .cancelTheConsumingTask ? "its task was cancelled" : "it broke out of its loop"); "
                    + "the live link is still open: stopLiveFixes() was never called.")
        }
        let delivered = device.delivered.value
        let late = await device.recordFix()
        let deliveredLate = device.delivered.value - delivered
        #expect(
            deliveredLate == 0,
            Bugs.liveLinkLeftOpen.comment("\(late), recorded after the consumer had gone, was still sent to the app."))
    }
}

@Suite("Chapter 18: routeFixes(from:) keeps every live fix, and closes the link when nobody listens")
@MainActor
struct RouteFeedTests {
    @Test("Every live fix reaches a busy consumer, in order", .exposesBug(Bugs.liveFixesLost))
    func everyFixReachesABusyConsumer() async {
        let device = BikeComputer()
        let consumer = BusyConsumer(routeFixes(from: device))
        device.recordFix()
        guard await awaitResult(of: { await consumer.taken.reach(1) }, orRecord: Bugs.liveFixesLost) != nil else {
            return
        }
        // The consumer is busy with fix #1 (saving it) while the rider rides on: more fixes
        // than the app's memory limit for the log sync, which doesn't apply to the live route.
        device.recordFixes(11)
        consumer.release()
        device.endRide()
        let detail =
            "The rider recorded fixes #1 to #12 and ended the ride; the consumer got \(numbers(consumer.received)) and is still waiting."
        guard await consumer.finishes(orRecord: Bugs.routeNeverFinishes, detail) else { return }
        let got = consumer.received
        if got != device.recorded {
            Bugs.liveFixesLost.record(
                "While the consumer was busy with fix #1, fixes #2 to #12 came; the consumer got \(numbers(got)) in all, "
                    + "not #1 to #12.")
        }
    }

    @Test("When the rider ends the ride, the consumer's loop ends")
    func rideEndEndsTheLoop() async {
        let device = BikeComputer()
        let consumer = BusyConsumer(routeFixes(from: device))
        consumer.release()
        device.recordFixes(2)
        device.endRide()
        let detail =
            "The rider recorded two fixes and ended the ride; the consumer got \(numbers(consumer.received)) and its loop is still waiting."
        // Which fixes it got is the business of the test above: here, only the end counts.
        _ = await consumer.finishes(orRecord: Bugs.routeNeverFinishes, detail)
    }

    // Each of these runs in a child process (an exit test): an onTermination that assumes it
    // runs on the main actor traps, and the trap must not end the test run.
    @Test(
        "When the consumer stops, the live link closes at once, and a later fix reaches nobody",
        .exposesBug(Bugs.liveLinkLeftOpen), arguments: EarlyStop.allCases)
    func linkClosesWhenTheConsumerStops(_ stop: EarlyStop) async {
        let log = CrashLog()
        let run = await offThePool {
            await #expect(processExitsWith: .success, Bugs.terminationCrashed.comment) {
                [log = log as CrashLog, stop = stop as EarlyStop] in
                await log.runScenario {
                    await LiveLinkScenario.linkClosesWhenTheConsumerStops(stop)
                }
            }
        }
        log.explain(run, as: Bugs.terminationCrashed)
    }
}
