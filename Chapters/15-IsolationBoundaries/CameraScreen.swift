@preconcurrency import LegacyCameraSDK
import SimulatedWorld

/// The camera screen's model: a live preview from the camera SDK, a shutter button, and an
/// export of the photos taken to the camera roll.
///
/// Exercise: the code was written in the Swift 5 days, and the app is moving to the Swift 6
/// language mode. Run `swift run workbook check 15` (or
/// `swift test --filter Ch15IsolationBoundariesTests`) to see what the Swift 6 compiler says
/// about it, and what happens when the SDK calls back. Read
/// Chapters/15-IsolationBoundaries/README.md first.
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

    /// - Parameter photoIDs: The photos taken before (in an earlier session), oldest first.
    public init(session: CameraSession, cameraRoll: CameraRoll, photoIDs: [String] = []) {
        self.session = session
        self.cameraRoll = cameraRoll
        self.photoIDs = photoIDs
    }

    /// Starts the live preview.
    public func start() {
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
        session.capturePhoto { photo in
            self.photoTaken(photo.id)
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
