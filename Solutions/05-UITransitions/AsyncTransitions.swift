import SimulatedWorld

/// `present` and `dismiss` that you can await, like the UIKit wrappers in the chapter's reading.
///
/// Both run on the main actor (they extend the `@MainActor` host), check for cancellation
/// before they start a transition, and resume from the transition's completion, so the code
/// after `await` runs once the lifecycle is over.
extension ScreenHost {
    /// Presents `screen` and returns once it is on screen (after `viewDidAppear`).
    /// Throws `CancellationError`, without presenting, if the task is already cancelled.
    public func presentAsync(_ screen: Screen) async throws {
        try Task.checkCancellation()
        await withCheckedContinuation { continuation in
            present(screen) { continuation.resume() }
        }
    }

    /// Dismisses the top screen and returns once it is gone (after `viewDidDisappear`).
    /// Throws `CancellationError`, without dismissing, if the task is already cancelled.
    public func dismissAsync() async throws {
        try Task.checkCancellation()
        await withCheckedContinuation { continuation in
            dismiss { continuation.resume() }
        }
    }
}
