import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch24LifetimesAndGlobalActorsSolution
#else
    import Ch24LifetimesAndGlobalActors
#endif

/// A name no other test uses, so each test has items of its own in the one shared inventory.
func freshItem(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8))" }

/// Checks that every change the journal noted for `items` ran on one actor, not the main actor.
/// Returns false (with the lesson recorded) when it did not.
@discardableResult
func expectOneStoreActor(for items: [String], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    let entries = stockJournal.entries.filter { entry in
        items.contains { entry.change.hasSuffix(" \($0)") || entry.change.contains(" \($0) ") }
    }
    guard let first = entries.first else {
        Issue.record(
            "the inventory noted no change in stockJournal; leave its record(_:) calls in place",
            sourceLocation: sourceLocation)
        return false
    }
    if let loose = entries.first(where: { $0.isolation == nil }) {
        Bugs.storeOnNoActor.record("\"\(loose.change)\" ran in nonisolated code.", sourceLocation: sourceLocation)
        return false
    }
    if let main = entries.first(where: \.onMainActor) {
        Bugs.storeOnMainActor.record("\"\(main.change)\" ran on the main actor.", sourceLocation: sourceLocation)
        return false
    }
    if let other = entries.first(where: { $0.isolation !== first.isolation }) {
        Bugs.storeOnSeveralActors.record(
            "\"\(first.change)\" ran on \(first.isolation.map { "\(type(of: $0))" } ?? "none"), \"\(other.change)\" on \(other.isolation.map { "\(type(of: $0))" } ?? "none").",
            sourceLocation: sourceLocation)
        return false
    }
    return true
}

/// The shop's tests share `Inventory.shared`, so they take turns: on the unfixed exercise two
/// of them at once would be the very data race the chapter is about.
@Suite("Chapter 24: the shop's inventory", .serialized)
struct InventoryTests {
    @Test("Deliveries and sales add up")
    func deliveriesAndSales() async {
        let item = freshItem("scarf")
        let checkout = Checkout()
        let warehouse = Warehouse()
        await warehouse.deliver(item, count: 2)
        let sales = [await checkout.buy(item), await checkout.buy(item), await checkout.buy(item)]
        let left = await warehouse.stock(of: item)
        if sales != [true, true, false] || left != 0 {
            Bugs.stockWrong.record("2 delivered, then 3 sales gave \(sales) and left \(left) in stock.")
        }
    }

    @Test(
        "Every change to the inventory runs on one actor of its own, not the main actor",
        .exposesBug(Bugs.storeOnNoActor))
    func changesRunOnTheStoreActor() async {
        let item = freshItem("hat")
        await Warehouse().deliver(item, count: 1)
        _ = await Checkout().buy(item)
        expectOneStoreActor(for: [item])
    }

    @Test(
        "Two checkouts and a warehouse at once: every item is sold once and the count adds up",
        .exposesBug(Bugs.storeOnNoActor))
    func overlappingCallers() async {
        let item = freshItem("glove")
        let warehouse = Warehouse()
        await warehouse.deliver(item, count: 1)
        // On the unfixed inventory the calls below would race for real: check first.
        guard expectOneStoreActor(for: [item]) else { return }
        let checkouts = [Checkout(), Checkout()]
        let sold = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                group.addTask { await checkouts[index % 2].buy(item) }
                if index % 4 == 0 {
                    group.addTask {
                        await warehouse.deliver(item, count: 1)
                        return false
                    }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let left = await warehouse.stock(of: item)
        // 1 + 5 delivered; 20 buyers.
        if sold + left != 6 || sold > 6 {
            Bugs.oversold.record("6 delivered: \(sold) sold and \(left) left in stock.")
        }
        expectOneStoreActor(for: [item])
    }
}

/// One step of a shop's day, on two items.
enum ShopOperation: Sendable, CustomStringConvertible {
    case deliver(item: Int, count: Int)
    case buy(item: Int)
    case stock(item: Int)

    var description: String {
        switch self {
        case .deliver(let item, let count): "warehouse.deliver(item \(item), count: \(count))"
        case .buy(let item): "checkout.buy(item \(item))"
        case .stock(let item): "warehouse.stock(of: item \(item))"
        }
    }
}

extension InventoryTests {
    /// The inventory against a model of one count per item, on sequences from fixed seeds.
    static let shopModel = ModelCheck<ShopOperation, String>(
        "Inventory (through Checkout and Warehouse)", lesson: Bugs.stockWrong, length: 10,
        generate: { random in
            let item = random.below(2)
            switch random.below(3) {
            case 0: return .deliver(item: item, count: 1 + random.below(2))
            case 1: return .buy(item: item)
            default: return .stock(item: item)
            }
        },
        real: { operations in
            let items = [freshItem("a"), freshItem("b")]
            let checkout = Checkout()
            let warehouse = Warehouse()
            var seen: [String] = []
            for operation in operations {
                switch operation {
                case .deliver(let item, let count):
                    await warehouse.deliver(items[item], count: count)
                    seen.append("delivered")
                case .buy(let item): seen.append("\(await checkout.buy(items[item]))")
                case .stock(let item): seen.append("\(await warehouse.stock(of: items[item]))")
                }
            }
            return seen
        },
        model: { operations in
            var stock = [0, 0]
            return operations.map { operation in
                switch operation {
                case .deliver(let item, let count):
                    stock[item] += count
                    return "delivered"
                case .buy(let item):
                    guard stock[item] > 0 else { return "false" }
                    stock[item] -= 1
                    return "true"
                case .stock(let item): return "\(stock[item])"
                }
            }
        })

    @Test("Contract: any day of deliveries, sales and counts adds up like one count per item")
    func modelSequences() async {
        await Self.shopModel.explore().record()
    }
}
