import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch18AsyncStreamsSolution
#else
    import Ch18AsyncStreams
#endif

@Suite("Chapter 18: the upload screen shows the newest progress, from one stream")
@MainActor
struct UploadProgressTests {
    @Test("After a busy moment, the next progress the screen shows is the newest")
    func busyScreenJumpsToTheNewest() async {
        let upload = RideUpload()
        let consumer = BusyConsumer(uploadProgress(of: upload))
        upload.report(0.1)
        guard await awaitResult(of: { await consumer.taken.reach(1) }, orRecord: Bugs.staleProgress) != nil else {
            return
        }
        // The screen is busy drawing 10 % while the upload goes on to the end.
        for tenth in 2...10 { upload.report(Double(tenth) / 10) }
        upload.complete()
        consumer.release()
        let detail = "The upload completed; the screen showed \(percentages(consumer.received)) and is still waiting."
        guard await consumer.finishes(orRecord: Bugs.progressNeverFinishes, detail) else { return }
        let shown = consumer.received
        if shown != [0.1, 1.0] {
            Bugs.staleProgress.record(
                "While the screen drew 10 %, the upload went from 20 % to 100 %. Then the screen showed "
                    + "\(percentages(Array(shown.dropFirst()))), not 100 % at once.")
        }
    }

    @Test("When its consumer stops, the progress stream stops observing the upload")
    func stopsObservingWhenTheConsumerStops() async {
        let upload = RideUpload()
        let consumer = BusyConsumer(uploadProgress(of: upload))
        upload.report(0.1)
        guard await awaitResult(of: { await consumer.taken.reach(1) }, orRecord: Bugs.staleProgress) != nil else {
            return
        }
        consumer.task.cancel()
        guard
            await consumer.finishes(
                orRecord: Bugs.observerLeft, "The consumer's task was cancelled; its loop is still waiting.")
        else { return }
        upload.report(0.2)  // the next event, after the consumer has gone
        if case .stillSuspended = await withinHangLimit(hangLimit, { await upload.observers.fall(to: 0) }) {
            Bugs.observerLeft.record(
                "The consumer's task was cancelled and the upload reported 20 % since; \(upload.observers.value) observer is still registered."
            )
        }
    }

    @Test("The bar and the label both reach 100 %", .exposesBug(Bugs.progressSplit))
    func barAndLabelBothFollow() async {
        let upload = RideUpload()
        let bar = ProgressDisplay()
        let label = ProgressDisplay()
        let screen = UploadScreen(bar: bar, label: label)
        screen.watch(upload)
        upload.report(0.5)
        upload.report(1.0)
        upload.complete()
        let both = await withinHangLimit(hangLimit) {
            await bar.showedComplete.reach(1)
            await label.showedComplete.reach(1)
        }
        if case .stillSuspended = both {
            Bugs.progressSplit.record(
                "The upload reported 50 % and 100 %, then completed. The bar showed \(percentages(bar.shown)); "
                    + "the label showed \(percentages(label.shown)).")
        }
        screen.close()
    }

    @Test(
        "Closed before its task starts, the screen shows nothing reported after close()",
        .exposesBug(Bugs.screenShowsAfterClose))
    func closedBeforeTheTaskStarts() async {
        let upload = RideUpload()
        let bar = ProgressDisplay()
        let label = ProgressDisplay()
        let screen = UploadScreen(bar: bar, label: label)
        // One turn of the main actor: the screen's task can't start before close(), nor
        // before the upload reports.
        screen.watch(upload)
        screen.close()
        upload.report(0.99)
        // Now the task starts, already cancelled. Once the upload has no observer left, the
        // stream has ended, and the loop has had what it was handed.
        var events = 0
        while upload.observers.value > 0, events < 100 {
            await MainQueue.drain()
            if upload.observers.value > 0 { upload.report(0.5) }
            events += 1
        }
        await MainQueue.drain()
        await MainQueue.drain()
        if !bar.shown.isEmpty || !label.shown.isEmpty {
            Bugs.screenShowsAfterClose.record(
                "watch(_:), close() and a report of 99 %, in one turn of the main actor; then the bar showed "
                    + "\(percentages(bar.shown)) and the label \(percentages(label.shown)).")
        }
    }

    @Test("close() stops following the upload")
    func closeStopsWatching() async {
        let upload = RideUpload()
        let screen = UploadScreen(bar: ProgressDisplay(), label: ProgressDisplay())
        screen.watch(upload)
        upload.report(0.3)
        screen.close()
        // The upload goes on reporting. Between two events, the main actor runs whatever the
        // cancel started: a stream that learns of its end from onTermination lets go of its
        // observer at once, one that learns it from yield's .terminated at the next event.
        var events = 0
        while upload.observers.value > 0, events < 100 {
            await MainQueue.drain()
            upload.report(0.4)
            events += 1
        }
        if upload.observers.value > 0 {
            Bugs.screenKeepsWatching.record(
                "After close(), and \(events) progress events since, \(upload.observers.value) observer is still registered with the upload."
            )
        }
    }
}
