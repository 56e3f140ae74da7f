import SimulatedWorld

/// The photo editor's screen model.
///
/// This module is an app module, set up like a new Xcode 26 app: its default isolation is
/// the main actor (see `chapterSettings` in Package.swift), so this class, its properties and
/// its methods are all on the main actor without saying `@MainActor`.
///
/// Wrong fix: autoEnhance() sets .enhanced before it awaits the tiles. (The solution leaves this
/// file unchanged; its fixes are in the functions the model calls: AutoEnhance.swift,
/// Drafts.swift and Export.swift.)
public final class EditorModel {
    /// Where the auto-enhance is.
    public enum Status: Sendable, Hashable {
        case idle, enhancing, enhanced, cancelled
    }

    /// The photo on screen.
    public private(set) var photo: RawPhoto
    /// The enhanced photo, once auto-enhance has finished.
    public private(set) var enhanced: EnhancedPhoto?
    /// Where the auto-enhance is.
    public private(set) var status: Status = .idle
    let engine: PixelEngine
    let store: DraftStore
    let writer: ArchiveWriter
    let history = EditHistory()

    public init(photo: RawPhoto, engine: PixelEngine, store: DraftStore, writer: ArchiveWriter) {
        self.photo = photo
        self.engine = engine
        self.store = store
        self.writer = writer
    }

    /// The edits made to the photo, in order.
    public var edits: [String] { history.edits }

    /// Records an edit the user made.
    public func apply(_ edit: String) {
        history.record(edit)
    }

    /// Enhances every tile of the photo. The screen stays responsive meanwhile: the heavy
    /// work must not hold the main actor. Cancelling the task that calls this stops the work
    /// at the next tile and leaves the photo as it was.
    public func autoEnhance() async {
        status = .enhancing
        do {
            status = .enhanced
            enhanced = try await enhanceTiles(of: photo, with: engine)
        } catch {
            status = .cancelled
        }
    }
}
