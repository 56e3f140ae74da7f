import SimulatedWorld

/// The shop's change log: the inventory notes each change and the actor it ran on.
/// Leave it as it is.
public let stockJournal = StockJournal()

/// The shop's stock, one count per item, shared by the checkout and the warehouse.
public final class Inventory {
    /// The one inventory of the shop.
    nonisolated(unsafe) public static let shared = Inventory()

    private var stock: [String: Int] = [:]

    /// Adds `count` of `item`.
    public func restock(_ item: String, count: Int) {
        stock[item, default: 0] += count
        stockJournal.record("restock \(item) \(count)")
    }

    /// Takes one `item` out of stock: true if there was one, false (and nothing changes) if not.
    public func reserve(_ item: String) -> Bool {
        guard let count = stock[item], count > 0 else { return false }
        stock[item] = count - 1
        stockJournal.record("reserve \(item)")
        return true
    }

    /// How many of `item` are in stock.
    public func count(of item: String) -> Int {
        stock[item] ?? 0
    }
}

/// The till: sells items from the inventory.
public actor Checkout {
    public init() {}

    /// Sells one `item`: true if it was in stock.
    public func buy(_ item: String) async -> Bool {
        Inventory.shared.reserve(item)
    }
}

/// The back room: receives deliveries into the inventory, and counts the stock.
public actor Warehouse {
    public init() {}

    /// Puts `count` of `item` into stock.
    public func deliver(_ item: String, count: Int) async {
        Inventory.shared.restock(item, count: count)
    }

    /// How many of `item` are in stock.
    public func stock(of item: String) async -> Int {
        Inventory.shared.count(of: item)
    }
}
