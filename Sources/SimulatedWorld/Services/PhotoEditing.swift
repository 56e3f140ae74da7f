/// The simulated photo editor's world (chapter 16): raw photos, a pixel engine that does
/// CPU-heavy work tile by tile, a draft store, and an archive writer.

/// A raw photo, made of tiles that the ``PixelEngine`` enhances one at a time.
public struct RawPhoto: Sendable, Hashable, CustomStringConvertible {
    public let id: String
    public let tileCount: Int

    public init(id: String, tileCount: Int = 4) {
        self.id = id
        self.tileCount = tileCount
    }

    public var description: String { "photo \"\(id)\"" }
}

/// One enhanced tile of a photo.
public struct EnhancedTile: Sendable, Hashable {
    public let photoID: String
    public let index: Int

    public init(photoID: String, index: Int) {
        self.photoID = photoID
        self.index = index
    }
}

/// A photo whose tiles were all enhanced.
public struct EnhancedPhoto: Sendable, Hashable {
    public let id: String
    public let tiles: [EnhancedTile]

    public init(id: String, tiles: [EnhancedTile]) {
        self.id = id
        self.tiles = tiles
    }
}

/// Enhances tiles: synchronous, CPU-heavy work, like a filter that touches every pixel.
///
/// ``enhance(tile:of:)`` runs on whatever thread calls it and keeps it busy until it returns.
/// Each call records where it ran, as ``MainActorProbe`` saw it: on the main actor, elsewhere
/// with the main actor free, or elsewhere while the main actor was blocked. A test can also
/// run an action as a given tile starts (``whenTileStarts(_:_:)``), to cancel the work there.
public final class PixelEngine: Sendable {
    /// One tile, as the engine enhanced it.
    public struct TileRun: Sendable, Hashable {
        public let photoID: String
        public let index: Int
        /// Where the work ran, and whether the main actor was free meanwhile.
        public let mainActor: MainActorProbe.Finding
    }

    private let log = Locked<[TileRun]>([])
    private let actions = Locked<[Int: @Sendable () -> Void]>([:])

    /// How many tiles have been enhanced; tests await it.
    public let tilesEnhanced = ObservedCount()

    public init() {}

    /// Every tile enhanced so far, in order.
    public var runs: [TileRun] { log.withLock { $0 } }

    /// Runs `action` as tile `index` of any photo starts, before it is enhanced.
    public func whenTileStarts(_ index: Int, _ action: @escaping @Sendable () -> Void) {
        actions.withLock { $0[index] = action }
    }

    /// Enhances tile `index` of `photo`, keeping the calling thread busy while it works.
    public func enhance(tile index: Int, of photo: RawPhoto) -> EnhancedTile {
        let action = actions.withLock { $0[index] }
        action?()
        let run = TileRun(photoID: photo.id, index: index, mainActor: MainActorProbe.check())
        log.withLock { $0.append(run) }
        tilesEnhanced.increment()
        return EnhancedTile(photoID: photo.id, index: index)
    }
}

/// The error a ``DraftStore`` throws for the save that its ``FailurePlan`` fails.
public enum DraftStoreError: Error, Sendable, Hashable {
    /// The disk had no room for the draft of `photoID`; nothing was written.
    case diskFull(photoID: String)
}

/// A draft store on disk: it saves the edits made to a photo, so they survive a relaunch.
/// ``save(_:for:)`` is asynchronous input and output: it waits, it doesn't compute.
///
/// A test can fail a chosen save (``failSaves(per:)``) and see each save start and end
/// (``onSaveStep(_:)``), to cancel the saving task at an exact point.
public final class DraftStore: Sendable {
    /// One saved draft.
    public struct Draft: Sendable, Hashable {
        public let photoID: String
        public let edits: [String]
    }

    /// A point in a save that ``onSaveStep(_:)`` reports.
    public enum SaveStep: Sendable, Hashable {
        /// The save starts, before it looks at cancellation.
        case starts
        /// The draft is written: the save returns next.
        case written
    }

    private struct Controls {
        var plan: FailurePlan?
        var stepHandler: (@Sendable (SaveStep) -> Void)?
    }

    private let log = Locked<[Draft]>([])
    private let controls = Locked(Controls())

    /// How many drafts have been saved; tests await it.
    public let saved = ObservedCount()

    public init() {}

    /// Every draft saved so far, in order.
    public var drafts: [Draft] { log.withLock { $0 } }

    /// Lets `plan` decide which save fails: every save that starts in a task that isn't
    /// cancelled is one call of the plan, and the one the plan fails throws
    /// ``DraftStoreError/diskFull(photoID:)`` and writes nothing.
    public func failSaves(per plan: FailurePlan) {
        controls.withLock { $0.plan = plan }
    }

    /// Calls `handler` as each save starts (before it looks at cancellation) and once its
    /// draft is written.
    public func onSaveStep(_ handler: @escaping @Sendable (SaveStep) -> Void) {
        controls.withLock { $0.stepHandler = handler }
    }

    /// Saves `edits` as the draft of photo `photoID`.
    public func save(_ edits: [String], for photoID: String) async throws {
        let (plan, step) = controls.withLock { ($0.plan, $0.stepHandler) }
        step?(.starts)
        try Task.checkCancellation()
        if plan?.nextCallFails("save the draft of \"\(photoID)\" (\(edits.count) edits)") == true {
            throw DraftStoreError.diskFull(photoID: photoID)
        }
        await Task.yield()  // the disk takes its time
        log.withLock { $0.append(Draft(photoID: photoID, edits: edits)) }
        saved.increment()
        step?(.written)
    }
}

/// Something the archive exporter can write: a title and a body. Like the protocols of
/// many frameworks, its requirements are nonisolated: the writer calls them from wherever it runs.
public protocol ExportableDocument {
    /// The document's title in the archive.
    var exportTitle: String { get }
    /// The document's content.
    func exportBody() -> String
}

/// One document in an archive.
public struct ArchiveEntry: Sendable, Hashable {
    public let title: String
    public let body: String
}

/// A written archive.
public struct Archive: Sendable, Hashable {
    public let entries: [ArchiveEntry]
}

/// Writes documents into a compressed archive: synchronous, CPU-heavy work.
///
/// ``write(_:)`` reads each document's requirements on the calling thread, then compresses,
/// keeping that thread busy. Each call records where it ran, as ``MainActorProbe`` saw it.
public final class ArchiveWriter: Sendable {
    /// One archive, as the writer wrote it.
    public struct Write: Sendable, Hashable {
        public let titles: [String]
        /// Where the work ran, and whether the main actor was free meanwhile.
        public let mainActor: MainActorProbe.Finding
    }

    private let log = Locked<[Write]>([])

    public init() {}

    /// Every archive written so far, in order.
    public var writes: [Write] { log.withLock { $0 } }

    /// Writes `documents` into an archive, keeping the calling thread busy while it compresses.
    public func write(_ documents: [any ExportableDocument]) -> Archive {
        let entries = documents.map { ArchiveEntry(title: $0.exportTitle, body: $0.exportBody()) }
        log.withLock { $0.append(Write(titles: entries.map(\.title), mainActor: MainActorProbe.check())) }
        return Archive(entries: entries)
    }
}
