import WorkbookTesting

private let reading = ChapterReading("24-LifetimesAndGlobalActors")

/// The chapter's Swift 6 compile (the same files, in the Swift 6 language mode).
let swift6 = Swift6Check(chapter: "24-LifetimesAndGlobalActors", module: "Ch24LifetimesAndGlobalActors")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    // The match screen.
    static let unregisteredLate = reading.lesson(
        "the released screen was still registered when the release returned",
        "MatchScreen's deinit handed the unregistration to a task, which runs some time later; until then the registry lists a screen that is gone. An isolated deinit runs on the main actor, and at once when the release happens there",
        section: "Isolated deinit: cleanup on the actor")
    static let neverUnregistered = reading.lesson(
        "the released screen never unregistered",
        "the last reference to the MatchScreen went away, but registry.unregister(_:) was never called for it, so the registry keeps a stale entry for ever",
        section: "A deinit runs where the last release happens")
    static let screenKeptAlive = reading.lesson(
        "the screen was not freed when its last reference went away",
        "something still holds the MatchScreen, usually its own listening task capturing self strongly, so its deinit can never run; capture self weakly in a task that lives as long as the screen",
        section: "A task that holds self")
    static let listeningLeaked = reading.lesson(
        "the released screen went on listening to the feed",
        "after the MatchScreen was gone its listening task was still iterating the score feed, so the subscription stayed open; the deinit has to cancel the task",
        section: "Isolated deinit: cleanup on the actor")
    static let unregisteredTwice = reading.lesson(
        "the screen unregistered more than once",
        "each screen registers once and must unregister exactly once, when it goes away",
        section: "Your task")
    static let scoreNotShown = reading.lesson(
        "a score the feed sent never reached the screen",
        "while the screen lives and listens, each score the feed sends must become its score",
        section: "The screen and the shop")
    static let startedTwice = reading.lesson(
        "a second start() opened a second subscription",
        "start() on a screen that already listens must do nothing",
        section: "Your task")
    static let deinitCallsMainActor = reading.lesson(
        "a plain deinit calls main-actor code",
        "a deinit that is not marked isolated is nonisolated, even in a @MainActor class, because it runs wherever the last release happens; mark it isolated deinit, then it runs on the main actor and may call the registry",
        section: "A deinit runs where the last release happens")
    static let deinitTrapped = reading.lesson(
        "the process stopped while a screen was released off the main actor",
        "the screen's last reference went away in nonisolated code, and the process died; a deinit runs wherever the last release happens, so code in it that insists on the main actor traps there",
        section: "A deinit runs where the last release happens")
    static let assumeIsolatedDeinit = reading.lesson(
        "MainActor.assumeIsolated was used to reach the main actor",
        "assumeIsolated does not move code to the main actor, it stops the process when the code runs elsewhere, and a deinit runs wherever the last release happens; write isolated deinit instead",
        section: "A deinit runs where the last release happens")

    // The inventory.
    static let sharedStore = reading.lesson(
        "the shared inventory is not safe from two actors",
        "Inventory.shared is one mutable object that the checkout and the warehouse, two actors, both change from their own executors, and nothing makes them take turns; give the inventory an actor of its own",
        section: "A store two actors share")
    static let storeOnNoActor = reading.lesson(
        "the inventory changed its stock on no actor",
        "a change to the inventory ran in nonisolated code, where the checkout and the warehouse can run it at the same moment; put the Inventory class on a global actor of its own",
        section: "A global actor of your own")
    static let storeOnMainActor = reading.lesson(
        "the inventory's changes ran on the main actor",
        "@MainActor makes the checkout and the warehouse take turns, but with the UI: every sale and delivery now waits for the main actor and holds it up; give the store a global actor of its own",
        section: "A global actor of your own")
    static let storeOnSeveralActors = reading.lesson(
        "the inventory's changes ran on more than one actor",
        "two actors that each change the store in turn still change it at the same moment as each other; every change must run on the one actor that owns the store",
        section: "A global actor of your own")
    static let stockWrong = reading.lesson(
        "the inventory's counts don't add up",
        "after the deliveries and sales the inventory reported a count, or a sale, that a shop with one count per item would not",
        section: "A store two actors share")
    static let oversold = reading.lesson(
        "two buyers both got the last item",
        "two checkouts bought the same last item at the same moment and both were told yes; a sale must check and take the item in one step on the store's actor",
        section: "A global actor of your own")
    static let unsafeOptOut = reading.lesson(
        "an escape hatch silences the compiler instead of fixing the store",
        "@unchecked Sendable and nonisolated(unsafe) tell the compiler the inventory is safe without making it safe: the checkout and the warehouse still change it at the same moment",
        section: "Escape hatches that only hide the error")
}
