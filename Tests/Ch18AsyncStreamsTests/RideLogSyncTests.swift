import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch18AsyncStreamsSolution
#else
    import Ch18AsyncStreams
#endif

@Suite("Chapter 18: loggedFixes(from:) lets the sync set the pace")
@MainActor
struct RideLogSyncTests {
    @Test(
        "While the sync is busy, at most 10 fixes wait in the app; it still gets every fix, in order",
        .exposesBug(Bugs.syncHoldsTooMuch))
    func syncHoldsLittleAndGetsEverything() async {
        let device = BikeComputer()
        device.recordFixes(40)
        device.endRide()
        let consumer = BusyConsumer(loggedFixes(from: device))
        guard await awaitResult(of: { await consumer.taken.reach(1) }, orRecord: Bugs.loggedFixesLost) != nil else {
            return
        }
        // The sync is busy uploading its first fix. Whatever the app has read from the device
        // and the sync has not taken sits in the app's memory.
        let waitingInApp = device.delivered.value - consumer.taken.value
        consumer.release()
        let detail =
            "The ride log has 40 fixes; the sync got \(consumer.received.count) of them and is still waiting for the rest."
        guard await consumer.finishes(orRecord: Bugs.syncNeverFinishes, detail) else { return }
        let got = consumer.received
        if got != device.recorded {
            let missing = device.recorded.filter { !got.contains($0) }
            Bugs.loggedFixesLost.record(
                "The ride log has fixes #1 to #40; the sync got \(got.count) of them"
                    + (missing.isEmpty
                        ? ", out of order."
                        : ", and never \(numbers(Array(missing.prefix(8))))\(missing.count > 8 ? "…" : ".")"))
        } else if waitingInApp > BikeComputer.appMemoryLimit {
            Bugs.syncHoldsTooMuch.record(
                "While the sync was busy with fix #1, \(waitingInApp) more fixes had been read from the bike computer "
                    + "and were waiting in the app's memory; the limit is \(BikeComputer.appMemoryLimit).")
        }
    }
}
