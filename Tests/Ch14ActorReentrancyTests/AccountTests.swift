import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch14ActorReentrancySolution
#else
    import Ch14ActorReentrancy
#endif

/// An account over a risk desk that holds every review until the test decides it.
@MainActor
struct AccountScene {
    let desk = RiskDesk(holding: true)
    let account: Account
    let opening: Int

    init(balance: Int) {
        opening = balance
        account = Account(balance: balance, riskDesk: desk)
    }

    /// Starts a withdrawal in its own task.
    func withdrawal(_ amount: Int, _ memo: String) -> Task<Void, any Error> {
        Task { [account] in try await account.withdraw(amount, memo: memo) }
    }

    /// Starts a withdrawal and waits until its review has started (and is held). Returns nil,
    /// with a lesson recorded, if it never reaches the risk desk.
    func inReview(_ amount: Int, _ memo: String) async -> Task<Void, any Error>? {
        let started = desk.started
        let target = started.value + 1
        let withdrawal = withdrawal(amount, memo)
        if case .stillSuspended = await withinHangLimit(hangLimit, { await started.reach(target) }) {
            Bugs.coveredWithdrawalRefused.record(
                "The withdrawal \"\(memo)\" (\(amount)) on a balance of \(opening) never reached the risk desk.")
            desk.approveAll()
            return nil
        }
        return withdrawal
    }

    /// How `withdrawal` ended, or nil with `Bugs.withdrawalNeverEnds` recorded if it never did.
    func outcome(of withdrawal: Task<Void, any Error>, _ memo: String) async -> Result<Void, any Error>? {
        guard case .finished(let result) = await withinHangLimit(hangLimit, { try await withdrawal.value }) else {
            Bugs.withdrawalNeverEnds.record("The withdrawal \"\(memo)\" was still running after its review had ended.")
            return nil
        }
        return result
    }

    /// How a withdrawal whose review is approved, while another one is held in review, ends;
    /// nil with `Bugs.blockedByReview` recorded if it waits for the held one.
    func outcomeBesideHeldReview(
        of withdrawal: Task<Void, any Error>, _ memo: String, held: String
    ) async -> Result<Void, any Error>? {
        guard case .finished(let result) = await withinHangLimit(hangLimit, { try await withdrawal.value }) else {
            Bugs.blockedByReview.record(
                "While \"\(held)\" was in review, \"\(memo)\" was approved by the desk but still waited: it can only end after \"\(held)\" does."
            )
            return nil
        }
        return result
    }
}

/// "went through" or "threw …", for failure messages.
private func describe(_ result: Result<Void, any Error>) -> String {
    switch result {
    case .success: "went through"
    case .failure(let error): describeThrown(error)
    }
}

@Suite("Chapter 14: an account actor keeps its balance across awaits")
@MainActor
struct AccountTests {
    @Test(
        "Two withdrawals the balance can't both cover: one goes through, the other is refused",
        .exposesBug(Bugs.overdrawn))
    func overlappingWithdrawalsKeepTheBalance() async {
        let scene = AccountScene(balance: 100)
        defer { scene.desk.approveAll() }
        guard let rent = await scene.inReview(80, "rent") else { return }
        scene.desk.approve("car")
        let car = scene.withdrawal(80, "car")
        let carBeside = await scene.outcomeBesideHeldReview(of: car, "car", held: "rent")
        scene.desk.approve("rent")
        guard let rentResult = await scene.outcome(of: rent, "rent") else { return }
        var carOutcome = carBeside
        if carOutcome == nil { carOutcome = await scene.outcome(of: car, "car") }
        guard let carResult = carOutcome else { return }
        let balance = await scene.account.balance
        let through = [("rent", rentResult), ("car", carResult)].filter { $0.1.value != nil }.map(\.0)
        if through.count == 2 || balance < 0 {
            Bugs.overdrawn.record(
                "On a balance of 100, \"car\" (80) was paid out while \"rent\" (80) was in review; then \"rent\" \(describe(rentResult)) and \"car\" \(describe(carResult)). The balance is now \(balance)."
            )
        } else if through.isEmpty {
            Bugs.coveredWithdrawalRefused.record(
                "On a balance of 100, neither withdrawal of 80 went through: \"rent\" \(describe(rentResult)), \"car\" \(describe(carResult))."
            )
        } else {
            #expect(
                balance == 20,
                "Only \"\(through[0])\" (80) went through on a balance of 100, yet the balance is \(balance).")
        }
    }

    @Test("Two withdrawals the balance covers both go through, one paid out while the other is in review")
    func withdrawalsDontWaitForEachOther() async {
        let scene = AccountScene(balance: 100)
        defer { scene.desk.approveAll() }
        guard let rent = await scene.inReview(30, "rent") else { return }
        scene.desk.approve("car")
        let car = scene.withdrawal(30, "car")
        let carBeside = await scene.outcomeBesideHeldReview(of: car, "car", held: "rent")
        if case .failure(let error) = carBeside {
            Bugs.blockedByReview.record(
                "While \"rent\" (30) was in review, \"car\" (30) was refused: \(describeThrown(error)), though the balance of 100 covers both."
            )
        }
        scene.desk.approve("rent")
        guard let rentResult = await scene.outcome(of: rent, "rent") else { return }
        if case .failure(let error) = rentResult {
            Bugs.coveredWithdrawalRefused.record(
                "\"rent\" (30) on a balance of 100 was approved by the desk, yet \(describeThrown(error)).")
        }
        if carBeside == nil { _ = await scene.outcome(of: car, "car") }
        let balance = await scene.account.balance
        #expect(balance == 40, "Two withdrawals of 30 from 100 left a balance of \(balance), not 40.")
    }

    @Test("A declined withdrawal takes nothing out of the account")
    func declinedWithdrawalTakesNothing() async {
        let scene = AccountScene(balance: 100)
        defer { scene.desk.approveAll() }
        guard let rent = await scene.inReview(80, "rent") else { return }
        scene.desk.decline("rent")
        guard let result = await scene.outcome(of: rent, "rent") else { return }
        if case .success = result {
            Issue.record("The risk desk declined \"rent\" (80), yet the withdrawal went through.")
        }
        let balance = await scene.account.balance
        if balance != 100 {
            Bugs.keepsMoney.record(
                "The risk desk declined \"rent\" (80) and the withdrawal \(describe(result)), yet the balance is \(balance), not 100."
            )
        }
    }

    @Test("A withdrawal cancelled during its review takes nothing out of the account")
    func cancelledWithdrawalTakesNothing() async {
        let scene = AccountScene(balance: 100)
        defer { scene.desk.approveAll() }
        guard let rent = await scene.inReview(80, "rent") else { return }
        rent.cancel()
        guard let result = await scene.outcome(of: rent, "rent") else { return }
        if case .success = result {
            Issue.record("The withdrawal \"rent\" was cancelled during its review, yet it went through.")
        }
        let balance = await scene.account.balance
        if balance != 100 {
            Bugs.keepsMoney.record(
                "The withdrawal \"rent\" (80) was cancelled during its review and \(describe(result)), yet the balance is \(balance), not 100."
            )
        }
    }

    @Test("A withdrawal larger than the balance is refused and takes nothing")
    func withdrawalLargerThanTheBalance() async {
        let scene = AccountScene(balance: 100)
        scene.desk.approveAll()
        guard let result = await scene.outcome(of: scene.withdrawal(150, "boat"), "boat") else { return }
        let refused: Bool
        if case .failure(let error) = result, let error = error as? AccountError {
            refused = error == .insufficientFunds(balance: 100, requested: 150)
        } else {
            refused = false
        }
        #expect(
            refused,
            "Withdrawing 150 from 100: the withdrawal \(describe(result)), not AccountError.insufficientFunds(balance: 100, requested: 150)."
        )
        let balance = await scene.account.balance
        #expect(balance == 100, "A refused withdrawal of 150 left a balance of \(balance), not 100.")
    }
}
