// swift-tools-version: 6.2
// Concurrency Workbook: one exercise module and one test target per chapter, plus (in the full
// workbook) one solution module per chapter. No package dependencies: only the toolchain.
import Foundation
import PackageDescription

// The tests capture values in exit tests, which Swift Testing supports from Swift 6.3 on.
#if !compiler(>=6.3)
    #error("Concurrency Workbook needs Swift 6.3 or later (see 'swift --version' and README.md, 'Requirements').")
#endif

/// The chapters, in order. Each name is a chapter folder under `Chapters/`.
/// `Chapters/curriculum.json` lists the same chapters; `CurriculumTests` keeps the two in step.
let chapters: [(folder: String, module: String)] = [
    ("01-Continuations", "Ch01Continuations"),
    ("02-ContinuationMisuse", "Ch02ContinuationMisuse"),
    ("03-DelegatePicker", "Ch03DelegatePicker"),
    ("04-CompletionHandlers", "Ch04CompletionHandlers"),
    ("05-UITransitions", "Ch05UITransitions"),
    ("06-AsyncNetworking", "Ch06AsyncNetworking"),
    ("07-AsyncSequences", "Ch07AsyncSequences"),
    ("08-AsyncLet", "Ch08AsyncLet"),
    ("09-Cancellation", "Ch09Cancellation"),
    ("10-TaskGroups", "Ch10TaskGroups"),
    ("11-UnstructuredTasks", "Ch11UnstructuredTasks"),
    ("12-DetachedTasks", "Ch12DetachedTasks"),
    ("13-SendableAndRegions", "Ch13SendableAndRegions"),
    ("14-ActorReentrancy", "Ch14ActorReentrancy"),
    ("15-IsolationBoundaries", "Ch15IsolationBoundaries"),
    ("16-ApproachableConcurrency", "Ch16ApproachableConcurrency"),
    ("17-LocksAndAtomics", "Ch17LocksAndAtomics"),
    ("18-AsyncStreams", "Ch18AsyncStreams"),
    ("19-ClocksAndTimeouts", "Ch19ClocksAndTimeouts"),
    ("20-TestingConcurrentCode", "Ch20TestingConcurrentCode"),
    ("21-StartingWork", "Ch21StartingWork"),
    ("22-ObservingState", "Ch22ObservingState"),
    ("23-TaskLocalsAndPriority", "Ch23TaskLocalsAndPriority"),
    ("24-LifetimesAndGlobalActors", "Ch24LifetimesAndGlobalActors"),
]

/// Chapters whose exercise is wrong under a Swift 6 compile. The package builds their
/// exercise in Swift 5 mode, so the workbook always builds; their tests compile the same files
/// in Swift 6 mode (WorkbookTesting's `Swift6Check`) and turn each diagnostic into a lesson.
/// Their solutions build in Swift 6 mode, like every other module.
let compileCheckChapters: Set<String> = [
    "13-SendableAndRegions", "15-IsolationBoundaries", "16-ApproachableConcurrency",
    "24-LifetimesAndGlobalActors",
]

/// Swift settings a chapter's exercise and solution share, for example an upcoming feature.
/// The chapter's `Swift6Check` passes the same flags to its Swift 6 compile.
let chapterSettings: [String: [SwiftSetting]] = [
    // An app module as a new Xcode 26 app sets it up: main actor by default (SE-0466), and the
    // two upcoming features of Xcode's "Approachable Concurrency" setting (SE-0461, SE-0470).
    "16-ApproachableConcurrency": [
        .defaultIsolation(MainActor.self),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
        .enableUpcomingFeature("InferIsolatedConformances"),
    ]
]

/// Modules besides SimulatedWorld that a chapter's exercise, solution and tests import.
let chapterDependencies: [String: [Target.Dependency]] = [
    "15-IsolationBoundaries": ["LegacyCameraSDK"]
]

var targets: [Target] = [
    // The simulated world the exercises call, deterministic and driven by tests, one folder per
    // world: Networking, Screens, Devices (SDKs, pickers), Services, and the Controls tests hold
    // it with (gates, clocks, locks, counters). Each folder's file of its own name says what it may use.
    .target(name: "SimulatedWorld"),
    // A camera SDK from before Swift concurrency, for chapter 15's `@preconcurrency import`:
    // a module of its own, in the Swift 5 language mode, with no concurrency annotations.
    .target(name: "LegacyCameraSDK", dependencies: ["SimulatedWorld"], swiftSettings: [.swiftLanguageMode(.v5)]),
    // The instruments the tests use: bounded waits, crash diagnosis, the exposes-bug trait.
    // EXPLORATION.md explains the exploration instruments and the seeded-scheduler measurement.
    .target(name: "WorkbookTesting", dependencies: ["SimulatedWorld"], exclude: ["Exploration/EXPLORATION.md"]),
    // The curriculum manifest model, read by tests and tooling.
    .target(name: "WorkbookCurriculum"),
    // The `workbook` command (progress, check, hints, watch, reset, verify, student edition):
    // its logic in a library, tested in the normal suite, and a thin executable. The library has
    // one folder per concern: CommandLine, Learner, Building, Processes, Checkout, Teaching, Text.
    // Every word a learner reads is in Text/Catalogs: one JSON catalog per language.
    .target(name: "WorkbookCLI", dependencies: ["WorkbookCurriculum"], resources: [.copy("Text/Catalogs")]),
    .executableTarget(name: "workbook", dependencies: ["WorkbookCLI"]),
    .testTarget(name: "CurriculumTests", dependencies: ["WorkbookCurriculum"]),
    .testTarget(name: "InstrumentTests", dependencies: ["WorkbookTesting", "SimulatedWorld"]),
    .testTarget(name: "SimulatedWorldTests", dependencies: ["SimulatedWorld", "WorkbookTesting", "LegacyCameraSDK"]),
    .testTarget(
        name: "WorkbookCLITests", dependencies: ["WorkbookCLI", "WorkbookTesting", "SimulatedWorld"],
        exclude: ["Fixtures"]),
]

for chapter in chapters {
    let extraDependencies = chapterDependencies[chapter.folder] ?? []
    let tests = Target.testTarget(
        name: chapter.module + "Tests",
        dependencies: [.target(name: chapter.module), "SimulatedWorld", "WorkbookTesting"] + extraDependencies)
    let settings = chapterSettings[chapter.folder] ?? []
    // Swift 5 mode keeps the exercise building; DynamicActorIsolation keeps Swift 6's run-time
    // isolation checks (SE-0423), so the exercise traps where its Swift 6 build would.
    let exerciseMode: [SwiftSetting] =
        compileCheckChapters.contains(chapter.folder)
        ? [.swiftLanguageMode(.v5), .enableUpcomingFeature("DynamicActorIsolation")] : []
    targets += [
        .target(
            name: chapter.module, dependencies: ["SimulatedWorld"] + extraDependencies,
            path: "Chapters/\(chapter.folder)", exclude: ["README.md", "README.ko.md", "lessons.ko.json"],
            swiftSettings: settings + exerciseMode),
        tests,
    ]
    // BEGIN SOLUTIONS (`workbook student-edition` leaves out everything down to END SOLUTIONS)
    let solution = chapter.module + "Solution"
    let solutionFolder = "Solutions/\(chapter.folder)"
    // Variants/ holds wrong and right fixes for the variant check (scripts/variant-check), MUTANTS.md
    // the equivalent mutants for the mutation check (scripts/mutation-check); never compiled here.
    targets.append(
        .target(
            name: solution, dependencies: ["SimulatedWorld"] + extraDependencies, path: solutionFolder,
            exclude: ["Variants", "MUTANTS.md"], swiftSettings: settings))
    tests.dependencies.append(.target(name: solution, condition: .when(traits: ["Solutions"])))
    // END SOLUTIONS
}

// On Linux the test binary and the tool link with lld where the toolchain has it (swift.org's
// toolchains do): every check after an edit links the test binary again, and lld takes about
// half the time of the default, gold (README.md, "Requirements"). macOS keeps Apple's linker.
let lldIsOnPath = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
    FileManager.default.isExecutableFile(atPath: "\($0)/ld.lld")
}
if lldIsOnPath {
    let lld: LinkerSetting = .unsafeFlags(["-use-ld=lld"], .when(platforms: [.linux]))
    for index in targets.indices where targets[index].type == .test || targets[index].type == .executable {
        targets[index].linkerSettings = (targets[index].linkerSettings ?? []) + [lld]
    }
}

let package = Package(
    name: "ConcurrencyWorkbook",
    // Mutex and Atomic (Synchronization) need macOS 15; Linux has them on every version.
    platforms: [.macOS(.v15)],
    // BEGIN SOLUTIONS
    traits: [
        .trait(
            name: "Solutions",
            description: "Run every chapter's tests against Solutions/ instead of Chapters/.")
    ],
    // END SOLUTIONS
    targets: targets,
    swiftLanguageModes: [.v6]
)
