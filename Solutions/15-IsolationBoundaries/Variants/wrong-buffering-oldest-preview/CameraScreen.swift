@preconcurrency import LegacyCameraSDK
import SimulatedWorld

/// The camera screen's model: a live preview from the camera SDK, a shutter button, and an
/// export of the photos taken to the camera roll.
///
/// Solution: every place where the SDK's queue meets the main actor hops explicitly, and the
/// export runs on its caller's actor.
@MainActor
public final class CameraScreen {
    /// The live preview: shows the number of the latest frame.
    public let preview = SimulatedScreen<Int>()
    /// The thumbnail of the last photo taken: shows its id.
    public let lastPhoto = SimulatedScreen<String>()
    /// The export's progress bar.
    public let exportProgress = ProgressBar()
    /// The ids of the photos taken, in order.
    public private(set) var photoIDs: [String] = []

    let session: CameraSession
    let cameraRoll: CameraRoll

    // Wrong fix (preview): the SDK's queue hands frame numbers (Sendable) to this stream, and one
    // task on the main actor draws them; but the stream keeps the oldest frame, not the newest.
    nonisolated let frameNumbers: AsyncStream<Int>.Continuation
    private let frameStream: AsyncStream<Int>
    private var previewUpdates: Task<Void, Never>?

    /// - Parameter photoIDs: The photos taken before (in an earlier session), oldest first.
    public init(session: CameraSession, cameraRoll: CameraRoll, photoIDs: [String] = []) {
        self.session = session
        self.cameraRoll = cameraRoll
        self.photoIDs = photoIDs
        (frameStream, frameNumbers) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingOldest(1))
    }

    deinit {
        frameNumbers.finish()
    }

    /// Starts the live preview.
    public func start() {
        if previewUpdates == nil {
            // Task { } started on the main actor runs on the main actor.
            previewUpdates = Task { [weak self, frameStream] in
                for await number in frameStream {
                    self?.show(frame: number)
                }
            }
        }
        session.delegate = self
        session.startRunning()
    }

    /// Stops the live preview.
    public func stop() {
        session.stopRunning()
    }

    /// Takes a photo: once the SDK has it, the photo is added to `photoIDs` and shown as the
    /// last photo.
    public func shutterTapped() {
        // Fix: a closure written in a main-actor method is isolated to the main actor, unless it is
        // @Sendable. The SDK calls it on its own queue, where Swift 6 checks that isolation at run
        // time and traps. So the closure is @Sendable (nonisolated): it takes the Sendable id out of
        // the SDK's photo and hops to the main actor explicitly.
        session.capturePhoto { @Sendable photo in
            let id = photo.id
            Task { @MainActor in self.photoTaken(id) }
        }
    }

    func photoTaken(_ id: String) {
        photoIDs.append(id)
        lastPhoto.draw(id)
    }

    func show(frame number: Int) {
        preview.draw(number)
    }
}
