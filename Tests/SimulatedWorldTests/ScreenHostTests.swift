import SimulatedWorld
import Testing
import WorkbookTesting

@MainActor
@Suite("ScreenHost runs a screen's lifecycle, and finishes transitions later")
struct ScreenHostTests {
    @Test("present: load and will-appear at once; did-appear, then the completion, after the animation")
    func presentLifecycle() async {
        let host = ScreenHost()
        let screen = Screen("Inbox")
        host.present(screen) { host.note("completion") }
        #expect(host.log == ["Inbox.viewDidLoad", "Inbox.viewWillAppear"])
        #expect(host.topScreen === screen)
        await host.transitionsFinished.reach(1)
        #expect(host.log == ["Inbox.viewDidLoad", "Inbox.viewWillAppear", "Inbox.viewDidAppear", "completion"])
        #expect(MainQueue.isCurrent)
    }

    @Test("dismiss: will-disappear at once; did-disappear, then the completion, after the animation")
    func dismissLifecycle() async {
        let host = ScreenHost()
        host.present(Screen("Inbox"))
        host.dismiss { host.note("completion") }
        #expect(host.topScreen == nil)
        #expect(host.log.last == "Inbox.viewWillDisappear")
        await host.transitionsFinished.reach(2)
        #expect(host.log.suffix(2) == ["Inbox.viewDidDisappear", "completion"])
    }

    @Test("A screen loads once; dismissing with nothing presented only calls the completion")
    func loadOnceAndEmptyDismiss() async {
        let host = ScreenHost()
        let screen = Screen("Inbox")
        host.present(screen)
        host.dismiss()
        host.present(screen)
        host.dismiss()
        host.dismiss { host.note("nothing to dismiss") }
        await host.transitionsFinished.reach(5)
        #expect(host.log.filter { $0.hasSuffix("viewDidLoad") }.count == 1)
        #expect(host.log.last == "nothing to dismiss")
    }

    @Test("Held animations start at once and finish only when released, in order")
    func heldAnimations() async {
        let host = ScreenHost()
        host.holdAnimations()
        host.present(Screen("Inbox")) { host.note("presented") }
        host.dismiss { host.note("dismissed") }
        for _ in 0..<(ScreenHost.animationFrames * 20) { await Task.yield() }
        #expect(host.log == ["Inbox.viewDidLoad", "Inbox.viewWillAppear", "Inbox.viewWillDisappear"])
        #expect(host.transitionsFinished.value == 0)
        host.releaseAnimations()
        await host.transitionsFinished.reach(2)
        #expect(host.log.suffix(4) == ["Inbox.viewDidAppear", "presented", "Inbox.viewDidDisappear", "dismissed"])
    }
}
