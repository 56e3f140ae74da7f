import Testing
import WorkbookTesting

/// The chapter's scenarios that run in a child process, as values, so that CI's repeated runs
/// can run all of them in one child (`SharedChild`). Any other run gives each its own child.
enum RouteChild: ChildScenario {
    case linkCloses(EarlyStop)
    case routeAtEveryCancelPoint

    static let everyScenario: [RouteChild] = EarlyStop.allCases.map { .linkCloses($0) } + [.routeAtEveryCancelPoint]

    /// In the child: plays the scenario.
    func run() async {
        switch self {
        case .linkCloses(let stop): await LiveLinkScenario.linkClosesWhenTheConsumerStops(stop)
        case .routeAtEveryCancelPoint: await exploreTheLiveRoute()
        }
    }

    /// In CI's repeated runs, waits for the shared child and records what this scenario did
    /// there (`crash` if it ended the process); returns whether it ran there.
    func ranShared(crash: Lesson, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        await Self.sharedChild.ranShared(self, crash: crash, sourceLocation: sourceLocation)
    }

    /// In CI's repeated runs, one child process runs every scenario.
    static let sharedChild = SharedChild<RouteChild> { log, scenarios in
        await #expect(processExitsWith: .success, SharedChild<RouteChild>.launchComment) {
            [log = log as CrashLog, scenarios = scenarios as [RouteChild]] in
            await log.runScenarios(scenarios) { await $0.run() }
        }
    }
}
