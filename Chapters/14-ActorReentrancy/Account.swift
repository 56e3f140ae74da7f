import SimulatedWorld

/// Why a withdrawal was refused by the account itself.
public enum AccountError: Error, Sendable, Hashable {
    /// The balance does not cover the amount.
    case insufficientFunds(balance: Int, requested: Int)
}

/// A bank account. Its balance never goes below zero.
///
/// Every withdrawal is reviewed by the risk desk before the money leaves the account, and a
/// review can take a while. Withdrawals don't wait for each other: while one is in review,
/// another can be reviewed and paid out.
///
/// Exercise: one withdrawal at a time works. Run `swift run workbook check 14` (or
/// `swift test --filter Ch14ActorReentrancyTests`) to see what two at once do.
public actor Account {
    /// The money in the account.
    public private(set) var balance: Int
    private let riskDesk: RiskDesk

    public init(balance: Int, riskDesk: RiskDesk) {
        self.balance = balance
        self.riskDesk = riskDesk
    }

    /// Adds `amount` to the balance.
    public func deposit(_ amount: Int) {
        balance += amount
    }

    /// Takes `amount` out of the account once the risk desk has approved it.
    ///
    /// Throws ``AccountError/insufficientFunds(balance:requested:)`` if the balance doesn't
    /// cover it, the desk's error if the desk declines it, and `CancellationError` if the
    /// task is cancelled during the review. A withdrawal that throws takes nothing out.
    public func withdraw(_ amount: Int, memo: String) async throws {
        guard balance >= amount else {
            throw AccountError.insufficientFunds(balance: balance, requested: amount)
        }
        try await riskDesk.review(amount, memo: memo)
        balance -= amount
    }
}
