import Testing
import WorkbookTesting

/// The chapter's scenarios that run in a child process, as values, so that CI's repeated runs
/// can run all three in one child (`SharedChild`). Any other run gives each its own child.
enum CameraChild: String, ChildScenario, CaseIterable {
    case shutter, preview, sequences

    /// In the child: plays the scenario.
    func run() async {
        switch self {
        case .shutter: await shutterScenario()
        case .preview: await previewScenario()
        case .sequences: await cameraSequences()
        }
    }

    /// In CI's repeated runs, waits for the shared child and records what this scenario did
    /// there (`crash` if it ended the process); returns whether it ran there.
    func ranShared(crash: Lesson, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        await Self.sharedChild.ranShared(self, crash: crash, sourceLocation: sourceLocation)
    }

    /// In CI's repeated runs, one child process runs every scenario.
    static let sharedChild = SharedChild<CameraChild> { log, scenarios in
        await #expect(processExitsWith: .success, SharedChild<CameraChild>.launchComment) {
            [log = log as CrashLog, scenarios = scenarios as [CameraChild]] in
            await log.runScenarios(scenarios) { await $0.run() }
        }
    }
}
