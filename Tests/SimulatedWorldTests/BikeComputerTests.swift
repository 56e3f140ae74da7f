import SimulatedWorld
import Testing

@Suite("Simulated world: the bike computer and the ride upload")
struct BikeComputerTests {
    @Test("The live link sends each fix as it is recorded, and nothing once it is closed")
    @MainActor
    func liveLinkSendsUntilClosed() {
        let device = BikeComputer()
        var events: [BikeComputer.Event] = []
        device.recordFix()  // before the link: not sent
        device.startLiveFixes { events.append($0) }
        #expect(device.isStreamingLive && device.liveLinks.value == 1)
        device.recordFix()
        device.stopLiveFixes()
        device.stopLiveFixes()  // a second stop changes nothing
        device.recordFix()
        #expect(events == [.fix(LocationFix(number: 2))])
        #expect(device.delivered.value == 1 && device.liveLinks.value == 0 && device.stops.value == 1)
    }

    @Test("The live link reports the end of the ride, even to a link opened after it")
    @MainActor
    func liveLinkReportsTheEnd() {
        let device = BikeComputer()
        var events: [BikeComputer.Event] = []
        device.startLiveFixes { events.append($0) }
        device.recordFix()
        device.endRide()
        var late: [BikeComputer.Event] = []
        device.startLiveFixes { late.append($0) }
        #expect(events == [.fix(LocationFix(number: 1)), .rideEnded] && late == [.rideEnded])
    }

    @Test("The log is sent whole by a transfer, or read one fix per call")
    @MainActor
    func logTransferAndReads() {
        let device = BikeComputer()
        device.recordFixes(3)
        var transferred: [BikeComputer.LogEvent] = []
        device.transferLog { transferred.append($0) }
        #expect(transferred == (1...3).map { .fix(LocationFix(number: $0)) } + [.end])
        #expect(device.delivered.value == 3)

        let reader = BikeComputer()
        reader.recordFixes(2)
        #expect(reader.readLoggedFix() == LocationFix(number: 1))
        #expect(reader.delivered.value == 1)
        #expect(reader.readLoggedFix() == LocationFix(number: 2))
        #expect(reader.readLoggedFix() == nil && reader.delivered.value == 2)
    }

    @Test("Upload observers get every event until removed, even from inside their handler")
    func uploadObservers() {
        let upload = RideUpload()
        let seen = Locked<[RideUpload.Event]>([])
        let observer = Locked<RideUpload.Observer?>(nil)
        let registered = upload.observeProgress { event in
            seen.withLock { $0.append(event) }
            if event == .progress(0.5), let observer = observer.withLock({ $0 }) { upload.removeObserver(observer) }
        }
        observer.withLock { $0 = registered }
        #expect(upload.observers.value == 1)
        upload.report(0.2)
        upload.report(0.5)
        upload.report(0.9)
        upload.complete()
        #expect(seen.withLock { $0 } == [.progress(0.2), .progress(0.5)])
        #expect(upload.observers.value == 0 && upload.reports.value == 3)
    }

    @Test("nextProgress() returns the newest fraction not read yet, then nil once the upload completed")
    func nextProgressSkipsToTheNewest() async {
        let upload = RideUpload()
        let first = Task { await upload.nextProgress() }
        upload.report(0.1)  // to the waiting reader, or kept for it
        #expect(await first.value == 0.1)
        upload.report(0.2)
        upload.report(0.7)
        upload.complete()
        #expect(await upload.nextProgress() == 0.7)
        #expect(await upload.nextProgress() == nil)
    }

    @Test("A reader of nextProgress() whose task is cancelled gets nil")
    func nextProgressSeesCancellation() async {
        let upload = RideUpload()
        let reader = Task { await upload.nextProgress() }
        reader.cancel()
        #expect(await reader.value == nil)
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await upload.nextProgress()
        }
        #expect(await late.value == nil)
    }

    @Test("A progress display records what it showed, and when it showed the upload complete")
    @MainActor
    func progressDisplay() {
        let display = ProgressDisplay()
        display.show(0.4)
        display.show(1.0)
        #expect(display.shown == [0.4, 1.0] && display.current == 1.0)
        #expect(display.redraws.value == 2 && display.showedComplete.value == 1)
    }
}
