// swift-tools-version: 6.1
// Concurrency Workbook: one exercise module, one solution module and one test target per chapter.
// No package dependencies: only what ships with the toolchain.
import PackageDescription

/// The chapters, in order. Each name is a folder under `Chapters/` and `Solutions/`.
/// `Chapters/curriculum.json` lists the same chapters; `CurriculumTests` keeps the two in step.
let chapters: [(folder: String, module: String)] = [
    ("01-Continuations", "Ch01Continuations"),
    ("02-ContinuationMisuse", "Ch02ContinuationMisuse"),
    ("03-DelegatePicker", "Ch03DelegatePicker"),
    ("04-CompletionHandlers", "Ch04CompletionHandlers"),
    ("05-UITransitions", "Ch05UITransitions"),
    ("08-AsyncLet", "Ch08AsyncLet"),
    ("09-Cancellation", "Ch09Cancellation"),
    ("10-TaskGroups", "Ch10TaskGroups"),
]

var targets: [Target] = [
    // The simulated world the exercises call: servers, SDKs, pickers. Deterministic, driven by tests.
    .target(name: "SimulatedWorld"),
    // The instruments the tests use: bounded waits, crash diagnosis, the exposes-bug trait.
    .target(name: "WorkbookTesting"),
    // The curriculum manifest model, read by tests and tooling.
    .target(name: "WorkbookCurriculum"),
    .testTarget(name: "CurriculumTests", dependencies: ["WorkbookCurriculum"]),
    .testTarget(name: "InstrumentTests", dependencies: ["WorkbookTesting", "SimulatedWorld"]),
    .testTarget(name: "SimulatedWorldTests", dependencies: ["SimulatedWorld", "WorkbookTesting"]),
]

for chapter in chapters {
    let solution = chapter.module + "Solution"
    targets += [
        .target(
            name: chapter.module, dependencies: ["SimulatedWorld"],
            path: "Chapters/\(chapter.folder)", exclude: ["README.md"]),
        .target(
            name: solution, dependencies: ["SimulatedWorld"],
            path: "Solutions/\(chapter.folder)"),
        .testTarget(
            name: chapter.module + "Tests",
            dependencies: [
                .target(name: chapter.module),
                .target(name: solution, condition: .when(traits: ["Solutions"])),
                "SimulatedWorld", "WorkbookTesting",
            ]),
    ]
}

let package = Package(
    name: "ConcurrencyWorkbook",
    traits: [
        .trait(
            name: "Solutions",
            description: "Run every chapter's tests against Solutions/ instead of Chapters/.")
    ],
    targets: targets,
    swiftLanguageModes: [.v6]
)
