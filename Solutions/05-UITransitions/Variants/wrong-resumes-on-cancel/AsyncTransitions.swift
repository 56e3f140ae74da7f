import SimulatedWorld

extension ScreenHost {
    public func presentAsync(_ screen: Screen) async throws {
        try await transition { finished in present(screen, completion: finished) }
    }

    public func dismissAsync() async throws {
        try await transition { finished in dismiss(completion: finished) }
    }

    /// Starts a transition and returns when it finishes, or as soon as the task is cancelled.
    private func transition(_ start: (@escaping @MainActor () -> Void) -> Void) async throws {
        try Task.checkCancellation()
        let once = ResumeOnce()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                once.arm(continuation)
                start { once.resume(with: .success(())) }
            }
        } onCancel: {
            once.resume(with: .failure(CancellationError()))
        }
    }
}

/// Resumes its continuation the first time only.
private final class ResumeOnce: Sendable {
    private let state = Locked<(continuation: CheckedContinuation<Void, any Error>?, done: Bool)>((nil, false))

    func arm(_ continuation: CheckedContinuation<Void, any Error>) {
        let alreadyDone = state.withLock { state -> Bool in
            if !state.done { state.continuation = continuation }
            return state.done
        }
        if alreadyDone { continuation.resume(throwing: CancellationError()) }
    }

    func resume(with result: Result<Void, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            defer { state.continuation = nil }
            state.done = true
            return state.continuation
        }
        continuation?.resume(with: result)
    }
}
