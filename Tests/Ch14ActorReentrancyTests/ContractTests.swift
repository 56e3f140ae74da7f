import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch14ActorReentrancySolution
#else
    import Ch14ActorReentrancy
#endif

// Chapter 14's contract ("Your task"), explored on its own: sequences of calls one after the
// other against a tiny model of each actor (fixed seeds, shrunk on failure), and every order
// in which overlapping callers' held downloads and reviews can end, each ending an approval,
// a failure or a cancel. Each failure names the lesson and adds a reproducer.

extension Bugs {
    static let accountBreaksContract = reading14.lesson(
        "the account did not do what its contract says, one call after another",
        "with one call at a time, a deposit adds its amount; a withdrawal the balance covers is paid once approved; one it doesn't cover throws insufficientFunds with the balance; a declined or cancelled one throws the desk's error or CancellationError and takes nothing",
        section: "Reserve first, give back on failure")
    static let cacheBreaksContract = reading14.lesson(
        "the cache did not do what its contract says, one call after another",
        "with one call at a time, an image is asked of the host only if no earlier call got it; a failed download throws the host's error, is not kept, and the next call asks again",
        section: "When the download fails")
}

private let reading14 = ChapterReading("14-ActorReentrancy")

// MARK: - The account, one call after another

/// One call to the account, ended by the desk as the operation says.
private enum AccountStep: Sendable, CustomStringConvertible {
    case deposit(Int)
    case withdraw(Int, Review)

    enum Review: String, Sendable { case approved, declined, cancelled }

    var description: String {
        switch self {
        case .deposit(let amount): "deposit(\(amount))"
        case .withdraw(let amount, let review): "withdraw(\(amount)), the review \(review.rawValue)"
        }
    }
}

private let openingBalance = 100

private let accountCheck = ModelCheck<AccountStep, String>(
    "Account(balance: \(openingBalance))", lesson: Bugs.accountBreaksContract,
    generate: { random in
        random.below(5) == 0
            ? .deposit(random.pick([20, 50]))
            : .withdraw(random.pick([30, 60, 90]), random.pick([.approved, .approved, .declined, .cancelled]))
    },
    simplify: { step in
        guard case .withdraw(let amount, let review) = step, review != .approved else { return [] }
        return [.withdraw(amount, .approved)]
    },
    real: { steps in await runAccount(steps) },
    model: { steps in
        var balance = openingBalance
        return steps.map { step in
            switch step {
            case .deposit(let amount):
                balance += amount
                return "deposited, balance \(balance)"
            case .withdraw(let amount, _) where amount > balance:
                return "insufficientFunds(balance: \(balance), requested: \(amount)), balance \(balance)"
            case .withdraw(let amount, .approved):
                balance -= amount
                return "paid, balance \(balance)"
            case .withdraw(_, .declined):
                return "declined, balance \(balance)"
            case .withdraw(_, .cancelled):
                return "cancelled, balance \(balance)"
            }
        }
    })

/// Runs `steps` on a fresh account, one call at a time. A withdrawal to be cancelled is
/// cancelled once its review has started, if the balance lets it get that far.
private func runAccount(_ steps: [AccountStep]) async -> [String] {
    let desk = RiskDesk(holding: true)
    let account = Account(balance: openingBalance, riskDesk: desk)
    var observed: [String] = []
    for (index, step) in steps.enumerated() {
        let memo = "w\(index)"
        switch step {
        case .deposit(let amount):
            await account.deposit(amount)
            observed.append("deposited, balance \(await account.balance)")
            continue
        case .withdraw(_, .approved): desk.approve(memo)
        case .withdraw(_, .declined): desk.decline(memo)
        case .withdraw(_, .cancelled): break
        }
        guard case .withdraw(let amount, let review) = step else { continue }
        let reviews = desk.started.value
        let covered = await account.balance >= amount
        let withdrawal = Task { try await account.withdraw(amount, memo: memo) }
        if review == .cancelled && covered {
            let started = desk.started
            _ = await withinHangLimit(hangLimit) { await started.reach(reviews + 1) }
            withdrawal.cancel()
        }
        guard case .finished(let result) = await withinHangLimit(hangLimit, { try await withdrawal.value }) else {
            desk.approveAll()
            observed.append("still running after its review ended")
            return observed
        }
        let balance = await account.balance
        switch result {
        case .success: observed.append("paid, balance \(balance)")
        case .failure(let error as AccountError): observed.append("\(error), balance \(balance)")
        case .failure(is RiskDeskError): observed.append("declined, balance \(balance)")
        case .failure(is CancellationError): observed.append("cancelled, balance \(balance)")
        case .failure(let error): observed.append("\(describeThrown(error)), balance \(balance)")
        }
    }
    return observed
}

// MARK: - The cache, one call after another

/// One call to the cache, for `id`, with the host answering it or failing.
private struct CacheStep: Sendable, CustomStringConvertible {
    let id: String
    let hostFails: Bool

    var description: String { "image(for: \"\(id)\")\(hostFails ? ", the host failing" : "")" }
}

private let cacheCheck = ModelCheck<CacheStep, String>(
    "ImageCache", lesson: Bugs.cacheBreaksContract,
    generate: { random in CacheStep(id: random.pick(["a", "b"]), hostFails: random.below(3) == 0) },
    simplify: { step in
        [
            step.id == "a" ? nil : CacheStep(id: "a", hostFails: step.hostFails),
            step.hostFails ? CacheStep(id: step.id, hostFails: false) : nil,
        ].compactMap { $0 }
    },
    real: { steps in
        let host = ImageHost(holding: false)
        let cache = ImageCache(host: host)
        var observed: [String] = []
        for step in steps {
            if step.hostFails { host.fail(step.id) } else { host.release(step.id) }
            let before = host.downloads(of: step.id)
            let outcome = await withinHangLimit(hangLimit) { try await cache.image(for: step.id) }
            let asked = host.downloads(of: step.id) > before ? "asked the host" : "from memory"
            switch outcome {
            case .finished(.success(let image)) where image.id == step.id: observed.append("the image, \(asked)")
            case .finished(.success(let image)): observed.append("the image \(image), \(asked)")
            case .finished(.failure(is ImageHostError)): observed.append("the host's error, \(asked)")
            case .finished(.failure(let error)): observed.append("\(describeThrown(error)), \(asked)")
            case .stillSuspended: observed.append("still waiting")
            }
        }
        return observed
    },
    model: { steps in
        var kept: Set<String> = []
        return steps.map { step in
            if kept.contains(step.id) { return "the image, from memory" }
            if step.hostFails { return "the host's error, asked the host" }
            kept.insert(step.id)
            return "the image, asked the host"
        }
    })

// MARK: - Overlapping callers of the cache

/// How the test ends a held download, or a waiting caller.
private enum Ending: String, Sendable { case delivered, failed }

/// Three callers, `image(for: "a")`, `image(for: "b")` and a second `image(for: "a")`, all
/// in flight at once, the host holding both downloads.
private final class CacheWorld: Sendable {
    let host = ImageHost(holding: true)
    let cache: ImageCache
    let arrivals = ObservedCount()
    let callers = Locked<[Caller]>([])
    let violations = Locked<[Violation]>([])
    static let ids = ["a", "b", "a"]

    init() { cache = ImageCache(host: host) }

    func note(_ violation: Violation) {
        violations.withLock { $0.append(violation) }
        host.releaseAll()
    }

    /// Starts the callers one by one: each download reaches the host before the next caller
    /// starts, and the last caller has run its first checks on the actor (see `startCaller`).
    func start() async {
        for (index, id) in Self.ids.enumerated() {
            let caller = await startCaller(cache, for: id, arrivals: arrivals)
            callers.withLock { $0.append(caller) }
            let (host, arrivals) = (host, arrivals)
            let reached = await withinHangLimit(hangLimit) {
                await arrivals.reach(index + 1)
                if index < 2 { await host.started.reach(index + 1) }
            }
            if case .stillSuspended = reached {
                return note(
                    Violation(
                        Bugs.downloadsOneAtATime,
                        "caller \(index + 1), image(for: \"\(id)\"), never got going while \(host.requests) were held"))
            }
        }
    }

    /// How caller `index` ended, or nil (noted) if it never did.
    func outcome(of index: Int) async -> Result<HostedImage, any Error>? {
        let caller = callers.withLock { $0[index] }
        guard case .finished(let result) = await withinHangLimit(hangLimit, { try await caller.value }) else {
            note(Violation(Bugs.callerNeverReturns, "caller \(index + 1) was still waiting after its download ended"))
            return nil
        }
        return result
    }
}

/// Every order in which the downloads of "a" and "b" end, each delivered or failed, with the
/// second caller of "a" cancelled before they end or not. Then a next call for each id.
private func exploreCacheOrders(_ endings: [Ending], cancelSecondA: Bool) async -> ExplorationReport {
    let downloads = ["a", "b"]
    return await exploreInterleavings(
        "callers image(for: \"a\"), image(for: \"b\"), image(for: \"a\")"
            + (cancelSecondA ? ", the third cancelled while it waits" : ""),
        labels: downloads.enumerated().map { "the download of \"\($1)\" is \(endings[$0].rawValue)" },
        world: CacheWorld.init,
        start: { world in
            await world.start()
            if cancelSecondA { world.callers.withLock { $0.count == 3 ? $0[2] : nil }?.cancel() }
        },
        release: { world, index in
            guard world.violations.withLock(\.isEmpty) else { return }
            let id = downloads[index]
            if endings[index] == .failed { world.host.fail(id) } else { world.host.release(id) }
            for caller in CacheWorld.ids.indices where CacheWorld.ids[caller] == id {
                _ = await world.outcome(of: caller)
            }
        }
    ) { world, _ in
        var violations = world.violations.withLock { $0 }
        guard violations.isEmpty else { return violations }
        var firstA: HostedImage?
        for (index, id) in CacheWorld.ids.enumerated() {
            guard let result = await world.outcome(of: index) else { continue }
            let ending = endings[downloads.firstIndex(of: id)!]
            let cancelled = cancelSecondA && index == 2
            switch result {
            case .success(let image) where image.id == id && ending == .delivered:
                if id == "a", let firstA, firstA != image {
                    violations.append(
                        Violation(Bugs.duplicateDownloads, "the callers of \"a\" got \(firstA) and \(image)"))
                }
                firstA = id == "a" ? image : firstA
            case .failure(is ImageHostError) where ending == .failed:
                break
            case .failure(is CancellationError) where cancelled:
                break
            case .failure where ending == .delivered && !cancelled:
                violations.append(
                    Violation(
                        cancelSecondA ? Bugs.sharedDownloadCancelled : Bugs.callerNeverReturns,
                        "caller \(index + 1), image(for: \"\(id)\"), \(describeOutcome(result)) though its download was delivered"
                    ))
            default:
                violations.append(
                    Violation(
                        Bugs.cacheBreaksContract,
                        "caller \(index + 1), image(for: \"\(id)\"), \(describeOutcome(result)) when its download \(ending.rawValue)"
                    ))
            }
        }
        for id in downloads where world.host.downloads(of: id) != 1 {
            violations.append(
                Violation(
                    Bugs.duplicateDownloads,
                    "the host was asked for \"\(id)\" \(world.host.downloads(of: id)) times: \(world.host.requests)"))
        }
        // Then one more call for each id: a delivered image from memory, a failed one asked again.
        for (index, id) in downloads.enumerated() {
            world.host.release(id)
            let before = world.host.downloads(of: id)
            let cache = world.cache
            let next = await withinHangLimit(hangLimit) { try await cache.image(for: id) }
            let asked = world.host.downloads(of: id) > before
            guard case .finished(.success(let image)) = next, image.id == id else {
                violations.append(
                    Violation(
                        endings[index] == .failed ? Bugs.failureKeptForever : Bugs.callerNeverReturns,
                        "after the download of \"\(id)\" \(endings[index].rawValue), the next call for it did not get the image"
                    ))
                continue
            }
            if endings[index] == .delivered && asked {
                violations.append(Violation(Bugs.downloadsAgain, "the next call for \"\(id)\" asked the host again"))
            }
        }
        return violations
    }
}

// MARK: - Overlapping withdrawals

/// Two withdrawals the balance covers together, "rent" (60) and "car" (40) on 100, both in
/// review at once.
private final class AccountWorld: Sendable {
    let desk = RiskDesk(holding: true)
    let withdrawals = Locked<[Task<Void, any Error>]>([])
    let violations = Locked<[Violation]>([])
    let bank: Account
    static let amounts = [("rent", 60), ("car", 40)]

    init() { bank = Account(balance: openingBalance, riskDesk: desk) }
}

/// Every order in which the desk ends the two reviews, each approved, declined or cancelled.
private func exploreReviewOrders(_ endings: [AccountStep.Review]) async -> ExplorationReport {
    let amounts = AccountWorld.amounts
    return await exploreInterleavings(
        "withdraw(60, \"rent\") and withdraw(40, \"car\") from 100, both in review",
        labels: amounts.enumerated().map { "the review of \"\($1.0)\" is \(endings[$0].rawValue)" },
        world: AccountWorld.init,
        start: { world in
            for (index, (memo, amount)) in amounts.enumerated() {
                let bank = world.bank
                world.withdrawals.withLock { $0.append(Task { try await bank.withdraw(amount, memo: memo) }) }
                let started = world.desk.started
                if case .stillSuspended = await withinHangLimit(hangLimit, { await started.reach(index + 1) }) {
                    world.violations.withLock {
                        $0.append(
                            Violation(
                                Bugs.blockedByReview,
                                "\"\(memo)\" (\(amount)) never reached the desk while \(world.desk.reviews) were in review"
                            ))
                    }
                    world.desk.approveAll()
                    return
                }
            }
        },
        release: { world, index in
            guard world.violations.withLock(\.isEmpty) else { return }
            let memo = amounts[index].0
            switch endings[index] {
            case .approved: world.desk.approve(memo)
            case .declined: world.desk.decline(memo)
            case .cancelled: world.withdrawals.withLock { $0[index] }.cancel()
            }
            let withdrawal = world.withdrawals.withLock { $0[index] }
            _ = await withinHangLimit(hangLimit) { try await withdrawal.value }
        }
    ) { world, _ in
        var violations = world.violations.withLock { $0 }
        guard violations.isEmpty else { return violations }
        var expected = openingBalance
        for (index, (memo, amount)) in amounts.enumerated() {
            let withdrawal = world.withdrawals.withLock { $0[index] }
            guard case .finished(let result) = await withinHangLimit(hangLimit, { try await withdrawal.value }) else {
                violations.append(
                    Violation(Bugs.withdrawalNeverEnds, "\"\(memo)\" was still running after its review ended"))
                continue
            }
            switch (endings[index], result) {
            case (.approved, .success): expected -= amount
            case (.declined, .failure(is RiskDeskError)), (.cancelled, .failure(is CancellationError)): break
            case (.approved, _):
                violations.append(
                    Violation(
                        Bugs.coveredWithdrawalRefused,
                        "\"\(memo)\" (\(amount)) was approved and \(describeOutcome(result))"))
            default:
                violations.append(
                    Violation(
                        Bugs.accountBreaksContract,
                        "\"\(memo)\" (\(amount)) was \(endings[index].rawValue) and \(describeOutcome(result))"))
            }
        }
        let balance = await world.bank.balance
        if balance != expected {
            violations.append(
                Violation(
                    expected > balance ? Bugs.keepsMoney : Bugs.overdrawn,
                    "the balance is \(balance), where the withdrawals that went through leave \(expected)"))
        }
        return violations
    }
}

// MARK: - Every failure point, every cancel point

/// The calls of the failure and cancel points: `image(for:)` of "a", "b", then "a" again.
private let cacheCalls = ["a", "b", "a"]

/// Whichever download fails: that call throws the host's error, and called again, the cache
/// asks the host only for what it doesn't have yet, and every call gets its image.
private func cacheFailurePoints() async -> ExplorationReport {
    await exploreFailurePoints(
        "image(for:) of \(cacheCalls), one after the other",
        world: { plan in
            let host = ImageHost(holding: false)
            host.failDownloads(per: plan)
            return (host, ImageCache(host: host))
        },
        operation: { world in
            var images: [String] = []
            for id in cacheCalls { images.append(try await world.1.image(for: id).id) }
            return images
        }
    ) { run, _ in
        guard let result = run.outcome, let recovery = run.recovery else {
            return [Violation(Bugs.callerNeverReturns, describeOutcome(run.outcome))]
        }
        var violations: [Violation] = []
        if let failed = run.failedCall, !result.failed(with: ImageHostError.self) {
            violations.append(
                Violation(
                    Bugs.cacheBreaksContract,
                    "the download of \"\(failed)\" failed, and the calls \(describeOutcome(result))"))
        }
        // The first run kept every image it got, up to the failure: the second asks for the rest.
        let kept = Set(run.calls.filter { $0 != run.failedCall })
        let due = Array(Set(cacheCalls).subtracting(kept)).sorted()
        if recovery.value != cacheCalls || run.recoveryCalls.sorted() != due {
            violations.append(
                Violation(
                    run.failingCall == nil ? Bugs.downloadsAgain : Bugs.failureKeptForever,
                    "called again, the calls \(describeOutcome(recovery)), asking the host for \(run.recoveryCalls) where \(due) was due"
                ))
        }
        return violations
    }
}

/// Cancelled before the call or as its download starts: the cancelled caller throws
/// `CancellationError` or gets the image (the contract leaves it open), and the next caller
/// gets the image.
private func cacheCancelPoints() async -> ExplorationReport {
    await exploreCancelPoints(
        "image(for: \"a\"), then another caller for \"a\"",
        world: { probe in
            let host = ImageHost(holding: false)
            host.onDownloadStart { probe.step("the download of \"\($0)\" starts") }
            return ImageCache(host: host)
        },
        operation: { try await $0.image(for: "a").id }
    ) { run, cache in
        var violations: [Violation] = []
        switch run.outcome {
        case .success("a")?: break
        case .failure(is CancellationError)? where !run.isBaseline: break
        default:
            violations.append(Violation(Bugs.cacheBreaksContract, "the caller \(describeOutcome(run.outcome))"))
        }
        let next = await withinHangLimit(hangLimit) { try await cache.image(for: "a") }
        if case .finished(.success(let image)) = next, image.id == "a" { return violations }
        violations.append(
            Violation(
                Bugs.failureKeptForever,
                "after the first caller was cancelled, the next caller of image(for: \"a\") got no image"))
        return violations
    }
}

/// Withdrawals of 20 and 30, one after the other, on 100.
private let withdrawals = [("a", 20), ("b", 30)]

/// Runs the withdrawals in turn; returns the balance after them.
private func withdrawInTurn(_ account: Account) async throws -> Int {
    for (memo, amount) in withdrawals { try await account.withdraw(amount, memo: memo) }
    return await account.balance
}

/// Whichever review is declined: that withdrawal throws the desk's error and takes nothing,
/// and the withdrawals run again go through.
private func accountFailurePoints() async -> ExplorationReport {
    await exploreFailurePoints(
        "withdraw \(withdrawals.map(\.1)) from \(openingBalance), one after the other",
        world: { plan in
            let desk = RiskDesk(holding: false)
            desk.declineReviews(per: plan)
            return Account(balance: openingBalance, riskDesk: desk)
        },
        operation: withdrawInTurn
    ) { run, account in
        guard let result = run.outcome, run.recovery != nil else {
            return [Violation(Bugs.withdrawalNeverEnds, describeOutcome(run.outcome))]
        }
        var violations: [Violation] = []
        if run.failingCall != nil, !result.failed(with: RiskDeskError.self) {
            violations.append(
                Violation(
                    Bugs.accountBreaksContract,
                    "the review of \(run.failedCall ?? "?") was declined, and \(describeOutcome(result))"))
        }
        // Every review that was not declined paid its withdrawal, in both runs.
        let paid = (run.calls.filter { $0 != run.failedCall } + run.recoveryCalls).map { memo in
            withdrawals.first { $0.0 == memo }?.1 ?? 0
        }
        let (balance, due) = (await account.balance, openingBalance - paid.reduce(0, +))
        if balance != due {
            violations.append(
                Violation(
                    Bugs.keepsMoney,
                    "after the withdrawals that went through (\(paid)), the balance is \(balance), not \(due)"))
        }
        return violations
    }
}

/// Cancelled before the call or as a review starts: the withdrawal in review throws
/// `CancellationError` and takes nothing, and no later review starts.
private func accountCancelPoints() async -> ExplorationReport {
    await exploreCancelPoints(
        "withdraw \(withdrawals.map(\.1)) from \(openingBalance), one after the other",
        world: { probe in
            let desk = RiskDesk(holding: false)
            desk.onReviewStart { probe.step("the review of \"\($0)\" starts") }
            return Account(balance: openingBalance, riskDesk: desk)
        },
        operation: withdrawInTurn
    ) { run, account in
        let paid = withdrawals.prefix(max((run.cancelAfter ?? withdrawals.count + 1) - 1, 0)).map(\.1).reduce(0, +)
        let balance = await account.balance
        var violations: [Violation] = []
        switch run.outcome {
        case .success? where run.isBaseline: break
        case .failure(is CancellationError)? where !run.isBaseline: break
        default:
            violations.append(Violation(Bugs.accountBreaksContract, "the withdrawals \(describeOutcome(run.outcome))"))
        }
        if balance != openingBalance - paid {
            violations.append(
                Violation(
                    Bugs.keepsMoney,
                    "the balance is \(balance), where the withdrawals that went through leave \(openingBalance - paid)")
            )
        }
        if !run.stepsAfterCancel.isEmpty && run.cancelAfter != 0 {
            violations.append(
                Violation(Bugs.accountBreaksContract, "after the cancel, \(run.stepsAfterCancel) started"))
        }
        return violations
    }
}

extension Result {
    /// Whether this is a failure with an error of type `type`.
    fileprivate func failed<E: Error>(with type: E.Type) -> Bool {
        if case .failure(let error) = self { return error is E }
        return false
    }
}

@Suite("Chapter 14: the contract, one call after another and in every order of overlapping calls")
struct ActorReentrancyContractTests {
    @Test("Account, one call after another, does what a tiny model of its contract does (fixed seeds)")
    func accountAgainstItsModel() async {
        await accountCheck.explore().record()
    }

    @Test("ImageCache, one call after another, does what a tiny model of its contract does (fixed seeds)")
    func cacheAgainstItsModel() async {
        await cacheCheck.explore().record()
    }

    @Test(
        "Overlapping callers of the cache, whatever order their downloads end in, delivered or failed, one caller cancelled or not",
        .exposesBug(Bugs.duplicateDownloads))
    func everyDownloadOrder() async {
        for first in [Ending.delivered, .failed] {
            for second in [Ending.delivered, .failed] {
                for cancel in [false, true] {
                    await exploreCacheOrders([first, second], cancelSecondA: cancel).record()
                }
            }
        }
    }

    @Test("Whichever download fails or review is declined, the call throws its error, and called again, it works")
    func everyFailurePoint() async {
        await cacheFailurePoints().record()
        await accountFailurePoints().record()
    }

    @Test("Cancelled before the call or as its download or review starts, a caller leaves the cache and account intact")
    func everyCancelPoint() async {
        await cacheCancelPoints().record()
        await accountCancelPoints().record()
    }

    @Test("Two withdrawals in review at once, whatever order the desk ends them in, approved, declined or cancelled")
    func everyReviewOrder() async {
        let endings: [AccountStep.Review] = [.approved, .declined, .cancelled]
        for first in endings {
            for second in endings {
                await exploreReviewOrders([first, second]).record()
            }
        }
    }
}
