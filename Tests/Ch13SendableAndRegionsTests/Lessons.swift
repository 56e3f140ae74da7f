import WorkbookTesting

private let reading = ChapterReading("13-SendableAndRegions")

/// The chapter's Swift 6 compile: the exercise module is built in Swift 5 mode, the tests compile it in Swift 6.
let swift6 = Swift6Check(chapter: "13-SendableAndRegions", module: "Ch13SendableAndRegions")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let settingsShared = reading.lesson(
        "the export shares the screen's ExportSettings object",
        "the export's tasks and the screen hold one and the same settings object, so moving the slider during an export changes the photos being exported; Swift 6 refuses to send a non-Sendable class into concurrent code for exactly this reason: make the settings a value",
        section: "A value type crosses for free")
    static let settingsReadLate = reading.lesson(
        "the export takes the settings when its task runs, not when Export is tapped",
        "the settings on screen at the tap belong to that export; read inside the task (self.settings), they are read later, after the slider may have moved: capture a copy when the task is made, in its capture list",
        section: "A value type crosses for free")
    static let settingsNotSendable = reading.lesson(
        "ExportSettings, a class, is captured by tasks that run at the same time",
        "every task that captures the object shares it with the code that made it; Swift 6 sends into concurrent code only Sendable values, or values in a region of their own: make the settings a value (a Sendable struct)",
        section: "A value type crosses for free")
    static let progressUnprotected = reading.lesson(
        "ExportProgress is changed by concurrent tasks with nothing to protect it",
        "the export's child tasks append to the same array at the same time, a data race; a class that is shared on purpose is Sendable only when its state is behind a lock, such as a Mutex",
        section: "Shared on purpose: a class with a Mutex")
    static let progressMiscounted = reading.lesson(
        "the progress doesn't list each finished photo once, in the order they finished",
        "ExportProgress.finished holds every photo of every export the screen started, each once, from the moment its render has returned, in the order the renders returned; report each photo as it finishes, never before, never twice",
        section: "Your task")
    static let exportWrongPhotos = reading.lesson(
        "the export returned other photos than it was given",
        "the task that exportTapped returns ends with every photo it was given, once each, in the order given, whatever order the renders finish in",
        section: "Your task")
    static let mutableSendableClass = reading.lesson(
        "a Sendable class has a mutable stored property",
        "the compiler can vouch for a Sendable class only when every stored property is a let of a Sendable type; keep the mutable state inside a Mutex (a let), or make the type a struct",
        section: "Shared on purpose: a class with a Mutex")
    static let batchNotHandedOver = reading.lesson(
        "startUpload gives its new task a batch the caller still holds",
        "the upload task reads the batch while the code that called startUpload can still change it; mark the parameter sending, so every caller must hand the batch over",
        section: "sending: handing a value over")
    static let batchFromScreenState = reading.lesson(
        "uploadTapped sends a batch that the screen's state holds",
        "a batch stored in the screen belongs to the main actor's region: the screen can still reach it (replacing the property doesn't change that), so it can't be sent; keep the picks as a value, and build a new batch to send",
        section: "Regions: a value you never touch again")
    static let batchUsedAfterSending = reading.lesson(
        "the screen keeps using the batch it handed to the upload",
        "photos picked after Upload went into the upload already in flight; hand the upload a batch of its own and start a new list for the next picks",
        section: "Regions: a value you never touch again")
    static let uncheckedSendableWithoutLock = reading.lesson(
        "@unchecked Sendable on a type with mutable state and no lock",
        "@unchecked Sendable tells the compiler to trust you that the type protects its state; with nothing protecting it, the data race the compiler reported is still there, only hidden",
        section: "Escape hatches and what they hide")
    static let nonisolatedUnsafe = reading.lesson(
        "nonisolated(unsafe) switches off the check that found the data race",
        "the value is still reached from several tasks at once; nonisolated(unsafe) only stops the compiler from saying so",
        section: "Escape hatches and what they hide")
    static let exportNeverRenders = reading.lesson(
        "the export never started rendering",
        "exportTapped should start rendering every photo at once, in the background",
        section: "The export screen")
    static let uploadNeverStarts = reading.lesson(
        "the upload never asked for a session",
        "uploadTapped should start the upload at once, in the background",
        section: "The export screen")
    static let workNeverEnds = reading.lesson(
        "the export or upload task never ended",
        "once the studio lets the work through, the task that uploadTapped or exportTapped returned should end",
        section: "The export screen")
}

/// Which lesson explains each Swift 6 diagnostic this chapter's exercise can produce.
let explainedDiagnostics: [DiagnosticLesson] = [
    DiagnosticLesson(Bugs.mutableSendableClass, containing: "is mutable"),
    DiagnosticLesson(Bugs.batchNotHandedOver, file: "PhotoExporter.swift", containing: "'batch'"),
    // The only `sending` parameter the screen passes to is startUpload's batch, whatever the local is called.
    DiagnosticLesson(Bugs.batchFromScreenState, file: "ExportScreen.swift", group: "SendingRisksDataRace"),
    DiagnosticLesson(Bugs.batchFromScreenState, file: "ExportScreen.swift", containing: "batch"),
    DiagnosticLesson(Bugs.settingsNotSendable, containing: "'settings'"),
    DiagnosticLesson(Bugs.settingsNotSendable, containing: "ExportSettings"),
    DiagnosticLesson(Bugs.progressUnprotected, containing: "'progress'"),
    DiagnosticLesson(Bugs.progressUnprotected, containing: "ExportProgress"),
]
