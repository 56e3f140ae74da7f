import SimulatedWorld
import Testing

@Suite("MainActorProbe: is the main actor free while work runs?")
struct MainActorProbeTests {
    @Test("On the main actor, the probe says the work runs there")
    @MainActor
    func onTheMainActor() {
        #expect(MainActorProbe.check() == .ranOnMainActor)
    }

    @Test("Off the main actor, with the main actor free, the probe says free")
    func offTheMainActor() async {
        let finding = await Task.detached { MainActorProbe.check() }.value
        #expect(finding == .free)
    }

    // No test blocks the main actor on purpose: the tests of every chapter share one main actor,
    // and a probe in another test would rightly call it blocked. The variant check covers that
    // case (Solutions/16-ApproachableConcurrency/Variants/wrong-global-queue-sync).
}
