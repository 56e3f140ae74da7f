import SimulatedWorld

/// Why a withdrawal was refused by the account itself.
public enum AccountError: Error, Sendable, Hashable {
    /// The balance does not cover the amount.
    case insufficientFunds(balance: Int, requested: Int)
}

/// A bank account. Its balance never goes below zero.
public actor Account {
    public private(set) var balance: Int
    private let riskDesk: RiskDesk

    public init(balance: Int, riskDesk: RiskDesk) {
        self.balance = balance
        self.riskDesk = riskDesk
    }

    public func deposit(_ amount: Int) {
        balance += amount
    }

    public func withdraw(_ amount: Int, memo: String) async throws {
        guard balance >= amount else {
            throw AccountError.insufficientFunds(balance: balance, requested: amount)
        }
        balance -= amount
        do {
            try await riskDesk.review(amount, memo: memo)
        } catch let error as RiskDeskError {
            // Declined: the money goes back.
            balance += amount
            throw error
        }
    }
}
