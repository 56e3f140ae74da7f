/// A screen, in the role of a `UIViewController`, without UIKit. The ``ScreenHost`` runs its lifecycle.
@MainActor
public final class Screen {
    public let title: String
    /// Whether `viewDidLoad` has run. It runs once, the first time the screen is presented.
    public fileprivate(set) var isLoaded = false

    public init(_ title: String) {
        self.title = title
    }
}

/// A simulated window that presents and dismisses ``Screen``s, in the role of UIKit's
/// `present(_:animated:completion:)` and `dismiss(animated:completion:)`.
///
/// Every step of a screen's lifecycle is appended to ``log`` as `"Title.viewWillAppear"` and so
/// on; app code can add its own entries with ``note(_:)``, so a test can read the order in which
/// things happened. Transitions are animated: `viewDidAppear` / `viewDidDisappear` and then
/// the completion run a few main-actor turns later (``animationFrames``), never at once.
/// No clock is involved: each frame is one `Task.yield()` on the main actor. A test can make
/// an animation last as long as it likes: ``holdAnimations()`` keeps transitions from
/// finishing until ``releaseAnimations()``, the way a real animation's length is not
/// anything app code can count on.
@MainActor
public final class ScreenHost {
    /// How many main-actor turns a transition's animation takes.
    public static let animationFrames = 3

    /// Lifecycle steps and notes, in the order they happened.
    public private(set) var log: [String] = []
    /// The presented screens, bottom first.
    public private(set) var stack: [Screen] = []
    /// Counts the entries in ``log``, so a test can await "the fourth entry is in".
    public let entries = ObservedCount()
    /// Counts transitions that have finished (their completion has been called).
    public let transitionsFinished = ObservedCount()

    public init() {}

    /// The screen on top, if any.
    public var topScreen: Screen? { stack.last }

    /// Presents `screen` on top: `viewDidLoad` (the first time), `viewWillAppear` now;
    /// `viewDidAppear`, then `completion`, once the animation has finished.
    public func present(_ screen: Screen, completion: (@MainActor () -> Void)? = nil) {
        if !screen.isLoaded {
            screen.isLoaded = true
            record(screen, "viewDidLoad")
        }
        record(screen, "viewWillAppear")
        stack.append(screen)
        animate {
            self.record(screen, "viewDidAppear")
            completion?()
        }
    }

    /// Dismisses the top screen: `viewWillDisappear` now; `viewDidDisappear`, then `completion`,
    /// once the animation has finished. With nothing presented, only `completion` runs.
    public func dismiss(completion: (@MainActor () -> Void)? = nil) {
        guard let screen = stack.popLast() else {
            animate { completion?() }
            return
        }
        record(screen, "viewWillDisappear")
        animate {
            self.record(screen, "viewDidDisappear")
            completion?()
        }
    }

    /// From now on, transitions do not finish (no `viewDidAppear`, no completion) until
    /// ``releaseAnimations()``. They still start at once: `viewWillAppear` and the rest.
    public func holdAnimations() {
        animationsHeld = true
    }

    /// Lets held transitions finish, in the order they started, and stops holding new ones.
    public func releaseAnimations() {
        animationsHeld = false
        let driver = heldDriver
        heldDriver = nil
        driver?.resume()
    }

    /// Appends app code's own entry to the log, for example "after presentAsync".
    public func note(_ entry: String) {
        log.append(entry)
        entries.increment()
        entryHandler?(entry)
    }

    /// Calls `handler` with each new entry of ``log``, right after it is appended, in the same
    /// turn of the main actor: a test can act at exactly that step (cancel a task, tap again,
    /// let go of an owner), with no waiting and no race.
    public func onEntry(_ handler: @escaping @MainActor (String) -> Void) {
        entryHandler = handler
    }

    private var entryHandler: (@MainActor (String) -> Void)?

    private func record(_ screen: Screen, _ step: String) {
        note("\(screen.title).\(step)")
    }

    /// Animations not yet finished, oldest first. Like UIKit's, transitions finish in the order
    /// they started: one driver task plays them one after the other, so the order never depends
    /// on how the scheduler happens to order separate tasks.
    private var pendingAnimations: [@MainActor () -> Void] = []
    private var isAnimating = false
    private var animationsHeld = false
    /// The driver task, while it waits for ``releaseAnimations()``.
    private var heldDriver: CheckedContinuation<Void, Never>?

    /// Runs `finish` after the animation's frames, then counts the transition as finished.
    private func animate(then finish: @escaping @MainActor () -> Void) {
        pendingAnimations.append(finish)
        guard !isAnimating else { return }
        isAnimating = true
        Task { @MainActor in
            while !self.pendingAnimations.isEmpty {
                for _ in 0..<Self.animationFrames { await Task.yield() }
                while self.animationsHeld {
                    await withCheckedContinuation { self.heldDriver = $0 }
                }
                let finishNext = self.pendingAnimations.removeFirst()
                finishNext()
                self.transitionsFinished.increment()
            }
            self.isAnimating = false
        }
    }
}
