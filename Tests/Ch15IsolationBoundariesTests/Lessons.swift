import Foundation
@preconcurrency import LegacyCameraSDK
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch15IsolationBoundariesSolution
#else
    import Ch15IsolationBoundaries
#endif

private let reading = ChapterReading("15-IsolationBoundaries")

/// The chapter's Swift 6 compile (the same files, in the Swift 6 language mode).
let swift6 = Swift6Check(chapter: "15-IsolationBoundaries", module: "Ch15IsolationBoundaries")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    // The Swift 6 compile.
    static let progressBarSent = reading.lesson(
        "the screen's progress bar is sent to a nonisolated async function",
        "exportPhotos(_:to:progress:) is nonisolated and async, so it runs off the main actor, and the screen's ProgressBar (not Sendable, owned by the main actor) would be used there and on the main actor at once; let the function run on its caller's actor instead",
        section: "Run on the caller's actor: isolated parameters and #isolation")
    static let conformanceCrossesIsolation = reading.lesson(
        "the main-actor screen cannot satisfy the SDK's nonisolated delegate protocol",
        "the SDK may call cameraSession(_:didOutput:) from any thread, so a main-actor method cannot be its witness; make the method nonisolated and hop to the main actor inside it",
        section: "Calls from nonisolated code")
    static let mainActorCallFromNonisolated = reading.lesson(
        "main-actor code is called synchronously from nonisolated code",
        "a nonisolated synchronous function (a delegate method the SDK calls on its queue) cannot call into the main actor directly: it has to hop there, without waiting",
        section: "Calls from nonisolated code")
    static let sendsAcrossIsolation = reading.lesson(
        "a value that is not Sendable crosses an isolation boundary",
        "only Sendable values may go from one isolation domain to another: take the Sendable data you need (an id, a number) out of the object before the hop",
        section: "Calls from nonisolated code")

    // The preview (the delegate).
    static let assumeIsolatedOffMain = reading.lesson(
        "MainActor.assumeIsolated was called from a background queue",
        "assumeIsolated does not move code to the main actor: it checks that the code already runs there, and stops the process when it doesn't. The camera SDK calls back on its own queue, so the check failed",
        section: "assumeIsolated checks, it does not hop")
    static let delegateTrapped = reading.lesson(
        "the main-actor delegate method was called on the SDK's queue, and Swift's run-time isolation check stopped the process",
        "a delegate method isolated to the main actor (through a @preconcurrency conformance) is checked when the SDK calls it; the SDK calls it on its own queue, so the check fails. Make the method nonisolated and hop to the main actor",
        section: "When Swift 6 checks isolation at run time")
    static let previewOffMainActor = reading.lesson(
        "a preview frame was drawn off the main actor",
        "the preview is UI and must be drawn on the main actor, but the frame was drawn on the SDK's queue",
        section: "Calls from nonisolated code")
    static let framesNeverShown = reading.lesson(
        "a preview frame the SDK delivered was never drawn",
        "after the SDK handed cameraSession(_:didOutput:) a frame, the preview never showed it",
        section: "assumeIsolated checks, it does not hop")
    static let newestFrameNeverShown = reading.lesson(
        "the preview never showed the newest frame",
        "the SDK delivered frames 4, 5 and 6 while the main actor was busy, and the preview never drew frame 6: it may skip a stale frame, but never the newest one (a stream that keeps only the newest frame, .bufferingNewest(1), drops the stale ones; .bufferingOldest(1) drops the new ones)",
        section: "Calls from nonisolated code")
    static let delegateWaitsForMainActor = reading.lesson(
        "the delegate method waits for the main actor",
        "while the main actor was busy, the SDK's queue could not hand over the next frames: cameraSession(_:didOutput:) must hop to the main actor without waiting (no DispatchQueue.main.sync, no semaphore)",
        section: "Calls from nonisolated code")
    static let screenKeptAlive = reading.lesson(
        "the started preview keeps the screen alive",
        "a task that reads the preview's stream runs as long as the stream does, so a closure that captures self strongly keeps the screen alive after everything else has let it go (and the stream never ends): capture self weakly, and finish the stream when the screen goes away",
        section: "Calls from nonisolated code")
    static let framesOutOfOrder = reading.lesson(
        "the preview showed the frames out of order",
        "each frame must reach the preview in the order the SDK delivered them; tasks not explicitly isolated to the main actor (a Task { await … } made in nonisolated code, say) run side by side, in no promised order",
        section: "Escape hatches that only hide the error")

    static let screenSequenceBroken = reading.lesson(
        "the screen broke its contract on a sequence of start, frames, stop, shutter and release",
        "after each step, once the SDK's callbacks have run, the preview shows the newest frame delivered while it runs (drawn on the main actor, in order, never a frame delivered while stopped), every photo taken is in photoIDs after the earlier ones and shows as the thumbnail, and a screen nothing holds any more is freed; the reproducer shows the shortest sequence that broke it",
        section: "Your task")

    // The shutter (a completion handler).
    static let completionTrapped = reading.lesson(
        "the completion passed to capturePhoto(completion:) is isolated to the main actor, and the SDK called it on its queue",
        "a closure written in a main-actor method, and not @Sendable, is isolated to the main actor; Swift 6 checks that when the closure starts, and the SDK's queue is not the main actor, so the process stopped",
        section: "When Swift 6 checks isolation at run time")
    static let photoOffMainActor = reading.lesson(
        "the photo taken was shown off the main actor",
        "the last-photo thumbnail is UI and must be drawn on the main actor, but it was drawn on the SDK's queue",
        section: "When Swift 6 checks isolation at run time")
    static let photoNeverShown = reading.lesson(
        "the photo taken was never shown",
        "the SDK called the completion of capturePhoto(completion:), but the photo never reached photoIDs and the last-photo thumbnail",
        section: "When Swift 6 checks isolation at run time")

    // The export.
    static let progressOffMainActor = reading.lesson(
        "the progress bar was updated off the main actor",
        "ProgressBar is UI owned by the main-actor screen, but exportPhotos(_:to:progress:) updated it from another thread",
        section: "Run on the caller's actor: isolated parameters and #isolation")
    static let progressLate = reading.lesson(
        "the progress bar was not up to date when exportAll() returned",
        "an update sent to the main queue (DispatchQueue.main.async) or into a new Task runs later, after the code that awaited the export has moved on; update the bar on the actor the export runs on",
        section: "Escape hatches that only hide the error")
    static let progressAhead = reading.lesson(
        "the progress bar showed a photo done before the camera roll had saved it",
        "exportPhotos(_:to:progress:) must update the bar only after cameraRoll.save(_:) has returned for that photo: a bar that runs ahead of the saves tells the user a photo is safe when it is not",
        section: "Run on the caller's actor: isolated parameters and #isolation")
    static let exportIncomplete = reading.lesson(
        "the export did not save every photo, in order",
        "exportAll() must save each photo taken to the camera roll, one after the other",
        section: "Run on the caller's actor: isolated parameters and #isolation")

    static let crashed = reading.lesson(
        "the process trapped while the camera SDK was calling back",
        "the process running this scenario died; the next issue says which callback was running",
        section: "When Swift 6 checks isolation at run time")
}

/// Writes the SDK's trace to standard error, where a child process's ``CrashLog`` keeps it.
/// `@Sendable`, so that it is nonisolated: the SDK calls it on its own queue.
let traceToStandardError: @Sendable (String) -> Void = { line in
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// The callback the SDK had started and not returned from when the process died, or nil.
func unfinishedCallback(in log: String) -> String? {
    let trace = log.split(separator: "\n").filter {
        $0.hasPrefix(CameraSession.traceCalling) || $0.hasPrefix(CameraSession.traceReturned)
    }
    guard let last = trace.last, last.hasPrefix(CameraSession.traceCalling) else { return nil }
    return String(last.dropFirst(CameraSession.traceCalling.count))
}

/// Which lesson explains a child process that died, given the SDK's trace and the escape
/// hatches in `file` (the file that handles the callback).
///
/// The runtime prints nothing when an isolation check fails here (Swift Testing turns the
/// backtracer off in exit tests), so the SDK's trace says which callback was running, and a
/// scan of the learner's code says what claimed the main actor there.
func lessonForTrap(in log: CrashLog, callbackFile file: String, otherwise lesson: Lesson) -> TrapExplanation {
    guard let callback = unfinishedCallback(in: log.contents) else { return TrapExplanation(Bugs.crashed) }
    let died = "The process stopped while the SDK was calling \(callback)."
    let claims = swift6.escapeHatches(in: file).filter { $0.kind == .assumeIsolated }
    if !claims.isEmpty {
        let lines = claims.map { "\($0.file):\($0.line): `\($0.sourceLine)`" }.joined(separator: "; ")
        return TrapExplanation(Bugs.assumeIsolatedOffMain, died + "\nThe claim: \(lines).")
    }
    if let conformance = mainActorConformance(marked: "preconcurrency") {
        return TrapExplanation(
            Bugs.delegateTrapped,
            died + "\n\(conformance) makes the compiler accept a main-actor witness, and check it at run time.")
    }
    return TrapExplanation(lesson, died)
}

/// The lesson for a child process that trapped, and what the test knows of the moment (one
/// line each), which ``CrashLog/explain(_:as:detail:sourceLocation:)`` records under it.
struct TrapExplanation {
    let lesson: Lesson
    let detail: String?

    init(_ lesson: Lesson, _ detail: String? = nil) {
        self.lesson = lesson
        self.detail = detail
    }
}

/// A conformance to the SDK's delegate protocol marked `@attribute` (`preconcurrency`, `MainActor`)
/// in the learner's code, as "File.swift:LINE (`line`)", or nil.
func mainActorConformance(marked attribute: String) -> String? {
    for url in swift6.sourceFiles {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
        for (index, line) in text.components(separatedBy: "\n").enumerated()
        where line.range(
            of: ":.*@\(attribute)\\s+CameraSessionDelegate", options: .regularExpression) != nil
        {
            return "\(url.lastPathComponent):\(index + 1) (`\(line.trimmingCharacters(in: .whitespaces))`)"
        }
    }
    return nil
}

/// The escape hatches in `file` that switch a Sendable or isolation check off, as a sentence, or "".
func silencedChecks(in file: String) -> String {
    let hatches = swift6.escapeHatches(in: file).filter {
        $0.kind == .nonisolatedUnsafe || $0.kind == .uncheckedSendable
    }
    guard !hatches.isEmpty else { return "" }
    let lines = hatches.map { "\($0.file):\($0.line): `\($0.sourceLine)`" }.joined(separator: "; ")
    return " The compiler was silenced, not satisfied: \(lines)."
}
