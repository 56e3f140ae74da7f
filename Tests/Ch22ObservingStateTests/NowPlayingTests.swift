import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch22ObservingStateSolution
#else
    import Ch22ObservingState
#endif

@Suite("Chapter 22: nowPlaying() shows whole tracks, ends up at the newest, and ends with the player")
@MainActor
struct NowPlayingTests {
    @Test("A new observer first sees the track that plays now", .exposesBug(Bugs.noCurrentTrack))
    @available(macOS 26.0, *)
    func firstValueIsTheCurrentTrack() async {
        let player = Player(playing: Tracks.jingle)
        let watcher = Watcher(player.nowPlaying())
        guard await watcher.seesAFirstValue(orRecord: Bugs.noCurrentTrack) else {
            return
        }
        #expect(
            watcher.seen.first == NowPlaying(Tracks.jingle),
            Bugs.noCurrentTrack.comment(
                "The player played \(Tracks.jingle) and nothing else; the observer's first value was \(describe(watcher.seen))."
            ))
        watcher.task?.cancel()
    }

    @Test(
        "An observer never sees a title with another track's length",
        .exposesBug(Bugs.tornState, Bugs.latestMissed))
    @available(macOS 26.0, *)
    func neverTorn() async {
        let player = Player(playing: Tracks.jingle)
        let watcher = Watcher(player.nowPlaying())
        // The first change comes before the observer has run; each later one while it waits for a value.
        for track in [Tracks.morningRide, Tracks.nightBus, Tracks.tidal] {
            player.play(track)
            let title = track.title
            guard
                await watcher.waitsToSee(
                    "the title \"\(title)\"", orRecord: Bugs.latestMissed, where: { $0.contains { $0.title == title } }),
                watcher.sawOnlyWholeTracks()
            else { break }
        }
        watcher.task?.cancel()
    }

    @Test(
        "A busy observer may skip tracks, but it ends up seeing the track that plays now",
        .exposesBug(Bugs.latestMissed, Bugs.tornState))
    @available(macOS 26.0, *)
    func busyObserverEndsAtTheNewest() async {
        let player = Player(playing: Tracks.jingle)
        let watcher = Watcher(player.nowPlaying())
        watcher.hold()
        player.play(Tracks.morningRide)
        guard await watcher.seesAFirstValue(orRecord: Bugs.latestMissed) else {
            return
        }
        // The observer is busy with its first value while three more tracks start: two in one
        // go, the last after a suspension of the main actor.
        player.play(Tracks.nightBus)
        player.play(Tracks.tidal)
        await Task.yield()
        player.play(Tracks.paperPlanes)
        watcher.release()
        if await watcher.waitsToSee(Tracks.paperPlanes, orRecord: Bugs.latestMissed) {
            watcher.sawOnlyWholeTracks()
        }
        watcher.task?.cancel()
    }

    @Test("shutDown() ends every observer's loop, and a later observer's at once", .exposesBug(Bugs.neverEnds))
    @available(macOS 26.0, *)
    func shutDownEndsEveryLoop() async {
        let player = Player(playing: Tracks.jingle)
        let first = Watcher(player.nowPlaying())
        let second = Watcher(player.nowPlaying())
        player.play(Tracks.longWayHome)
        player.shutDown()
        let detail = "The player played \(Tracks.longWayHome), then shut down."
        guard await first.ends(orRecord: Bugs.neverEnds, detail), await second.ends(orRecord: Bugs.neverEnds, detail)
        else { return }
        let late = Watcher(player.nowPlaying())
        guard await late.ends(orRecord: Bugs.neverEnds, "The player had shut down before the observer asked.") else {
            return
        }
        #expect(
            late.seen.isEmpty,
            Bugs.neverEnds.comment(
                "An observer that starts after shutDown() has nothing to see; it saw \(describe(late.seen))."))
    }

    @Test("Two observers each see every track that plays long enough")
    @available(macOS 26.0, *)
    func twoObserversBothSeeEachTrack() async {
        let player = Player(playing: Tracks.jingle)
        let watchers = [Watcher(player.nowPlaying()), Watcher(player.nowPlaying())]
        // Whether each value is whole and newest is the business of the tests above: here,
        // only that neither observer takes a track away from the other.
        for track in [Tracks.tidal, Tracks.nightBus] {
            player.play(track)
            let title = track.title
            for watcher in watchers {
                guard
                    await watcher.waitsToSee(
                        "the title \"\(title)\"", orRecord: Bugs.valuesShared,
                        where: { $0.contains { $0.title == title } })
                else { break }
            }
        }
        for watcher in watchers { watcher.task?.cancel() }
    }

    @Test("Cancelling one observer's task ends its loop; the other goes on")
    @available(macOS 26.0, *)
    func cancelEndsOneLoop() async {
        let player = Player(playing: Tracks.jingle)
        let leaving = Watcher(player.nowPlaying())
        let staying = Watcher(player.nowPlaying())
        player.play(Tracks.morningRide)
        for watcher in [leaving, staying] {
            guard await watcher.seesAFirstValue(orRecord: Bugs.noCurrentTrack)
            else { return }
        }
        leaving.task?.cancel()
        guard await leaving.ends(orRecord: Bugs.cancelIgnored, "The observer's task was cancelled.") else { return }
        player.play(Tracks.paperPlanes)
        let title = Tracks.paperPlanes.title
        _ = await staying.waitsToSee(
            "the title \"\(title)\" after the other observer left", orRecord: Bugs.cancelIgnored,
            where: { $0.contains { $0.title == title } })
        staying.task?.cancel()
    }

    @Test("An observer cancelled before it starts, or while it is busy, ends its loop")
    @available(macOS 26.0, *)
    func cancelBeforeStartAndWhileBusy() async {
        let player = Player(playing: Tracks.jingle)
        let early = Watcher(player.nowPlaying())
        early.task?.cancel()  // before its task has run at all
        let busy = Watcher(player.nowPlaying())
        busy.hold()
        player.play(Tracks.nightBus)
        guard await busy.seesAFirstValue(orRecord: Bugs.latestMissed) else {
            return
        }
        player.play(Tracks.tidal)
        busy.task?.cancel()  // while it is busy with its first value
        // Whether either one got a value first is left open: only the end counts.
        _ = await early.ends(orRecord: Bugs.cancelIgnored, "The observer's task was cancelled before it started.")
        _ = await busy.ends(orRecord: Bugs.cancelIgnored, "The observer's task was cancelled while it was busy.")
    }
}
