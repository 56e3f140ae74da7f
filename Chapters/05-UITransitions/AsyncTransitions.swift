import SimulatedWorld

/// `present` and `dismiss` that you can await, like the UIKit wrappers in the chapter's reading.
///
/// Exercise: these compile and the screens do appear. Run
/// `swift run workbook check 05` (or `swift test --filter Ch05UITransitionsTests`) to see when
/// they return, and what a cancelled
/// task does with them. Read Chapters/05-UITransitions/README.md first.
extension ScreenHost {
    /// Presents `screen` and returns once it is on screen (after `viewDidAppear`).
    public func presentAsync(_ screen: Screen) async throws {
        await withCheckedContinuation { continuation in
            present(screen) {
                print("\(screen.title) is on screen")
            }
            continuation.resume()
        }
    }

    /// Dismisses the top screen and returns once it is gone (after `viewDidDisappear`).
    public func dismissAsync() async throws {
        await withCheckedContinuation { continuation in
            dismiss {
                print("The top screen is gone")
            }
            continuation.resume()
        }
    }
}
