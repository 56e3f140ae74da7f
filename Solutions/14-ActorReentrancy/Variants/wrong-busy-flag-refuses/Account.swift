import SimulatedWorld

/// Why a withdrawal was refused by the account itself.
public enum AccountError: Error, Sendable, Hashable {
    /// The balance does not cover the amount.
    case insufficientFunds(balance: Int, requested: Int)
    /// Another withdrawal is in review; try again later.
    case busy
}

/// A bank account. Its balance never goes below zero.
public actor Account {
    public private(set) var balance: Int
    private let riskDesk: RiskDesk
    private var isReviewing = false

    public init(balance: Int, riskDesk: RiskDesk) {
        self.balance = balance
        self.riskDesk = riskDesk
    }

    public func deposit(_ amount: Int) {
        balance += amount
    }

    public func withdraw(_ amount: Int, memo: String) async throws {
        // One withdrawal at a time, so that none can run during another's review.
        guard !isReviewing else {
            throw AccountError.busy
        }
        guard balance >= amount else {
            throw AccountError.insufficientFunds(balance: balance, requested: amount)
        }
        isReviewing = true
        defer { isReviewing = false }
        try await riskDesk.review(amount, memo: memo)
        balance -= amount
    }
}
