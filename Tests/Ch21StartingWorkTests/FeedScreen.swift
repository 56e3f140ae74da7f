import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch21StartingWorkSolution
#else
    import Ch21StartingWork
#endif

/// The feed screen's model and its service, as the tests drive them: every call to the model
/// is a user's tap, made on the test's turn of the main actor.
@MainActor
struct FeedScreen {
    let service = FeedService()
    let model: FeedScreenModel

    init() {
        model = FeedScreenModel(service: service)
    }

    /// Taps Refresh and returns the load it started (nil if the tap started none).
    @discardableResult
    func refresh() -> Task<Void, Never>? {
        let before = model.loadTask
        model.refreshTapped()
        guard let after = model.loadTask, after != before else { return nil }
        return after
    }

    /// What the screen shows, in one line.
    var shows: String {
        "spinner \(model.isLoading ? "on" : "off"), posts \(model.posts), error "
            + (model.errorMessage.map { "\"\($0)\"" } ?? "none")
    }

    /// Whether the screen shows no spinner, exactly `posts`, and an error message if `error`.
    func settled(showing posts: [String], error: Bool = false) -> Bool {
        !model.isLoading && model.posts == posts && (model.errorMessage != nil) == error
    }

    /// What the service saw, in one line.
    var serviceLog: String {
        service.events.isEmpty ? "nothing" : service.events.map(\.description).joined(separator: ", ")
    }

    /// Waits for `loads` to end, or records `Bugs.loadNeverEnds`. Returns whether they ended.
    @discardableResult
    func awaitEnd(of loads: [Task<Void, Never>?]) async -> Bool {
        let loads = loads.compactMap { $0 }
        return await awaitResult(of: { for load in loads { await load.value } }, orRecord: Bugs.loadNeverEnds)
            != nil
    }

    /// Checks, right after `refreshTapped()` returned, that the spinner is on and request
    /// `number` is sent. Records what is missing and returns false if anything is.
    func loadingAtOnce(request number: Int, after what: String) -> Bool {
        var ok = true
        if !model.isLoading {
            Bugs.spinnerLate.record("Right after \(what), the screen shows: \(shows).")
            ok = false
        }
        if service.requests.count < number {
            Bugs.requestLate.record(
                "Right after \(what), the service had seen \(service.requests.count) requests, not \(number).")
            ok = false
        }
        return ok
    }
}
