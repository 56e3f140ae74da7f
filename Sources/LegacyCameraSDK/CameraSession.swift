import Dispatch
import SimulatedWorld

// A camera SDK from before Swift concurrency, as an Objective-C framework imported into Swift
// looks: classes, a delegate protocol and completion handlers, and not one word about threads
// or actors. This module is built in the Swift 5 language mode, so nothing here is `Sendable`
// or isolated to an actor. Like real capture SDKs, it calls its delegate and its completion
// handlers on a serial queue of its own, never on the main queue.

/// One frame of the live preview, handed to the delegate.
public final class CameraFrame {
    /// The frame's number: 1, 2, 3… in the order the sensor delivered them.
    public let number: Int

    init(number: Int) { self.number = number }
}

/// A photo the session captured, handed to `capturePhoto(completion:)`'s completion.
public final class CapturedPhoto {
    /// The photo's id, for example "photo-1".
    public let id: String

    init(id: String) { self.id = id }
}

/// What a camera session tells its delegate.
///
/// The session calls these methods on its `delegateQueue`, a serial background queue: never
/// on the main queue.
public protocol CameraSessionDelegate: AnyObject {
    /// A new preview frame is ready.
    func cameraSession(_ session: CameraSession, didOutput frame: CameraFrame)
}

/// A camera session: a live preview for its delegate, and still photos on demand.
///
/// Everything the session calls back (the delegate, the completion of `capturePhoto`) runs on
/// `delegateQueue`. In the workbook, the tests play the camera's sensor:
/// `sensorDelivers(frame:)` makes the session hand a frame to its delegate.
public final class CameraSession {
    /// The label of the queue the session calls back on.
    public static let delegateQueueLabel = "LegacyCameraSDK.CameraSession.delegateQueue"

    /// Receives the preview frames. Weak, as Objective-C delegates are.
    public weak var delegate: CameraSessionDelegate?

    /// The serial queue every callback runs on.
    public let delegateQueue = DispatchQueue(label: CameraSession.delegateQueueLabel)

    /// Whether `startRunning()` was called (and `stopRunning()` not since).
    public var isRunning: Bool { state.withLock { $0.running } }

    /// Counts the callbacks the session has made and that have returned.
    public let callbacksReturned = ObservedCount()

    private let state = Locked((running: false, photos: 0))
    private let trace: ((String) -> Void)?

    /// - Parameter trace: Called with one line before and after every callback the session
    ///   makes, like the debug logging many SDKs offer.
    public init(trace: ((String) -> Void)? = nil) {
        self.trace = trace
    }

    /// Starts the live preview: from now on, every frame the sensor delivers goes to the delegate.
    public func startRunning() { state.withLock { $0.running = true } }

    /// Stops the live preview.
    public func stopRunning() { state.withLock { $0.running = false } }

    /// Captures a still photo, and calls `completion` with it on `delegateQueue`.
    public func capturePhoto(completion: @escaping (CapturedPhoto) -> Void) {
        let number = state.withLock { state -> Int in
            state.photos += 1
            return state.photos
        }
        let photo = CapturedPhoto(id: "photo-\(number)")
        call("capturePhoto(completion:)'s completion with \"\(photo.id)\"") { completion(photo) }
    }

    /// Simulation: the sensor delivers frame `number`. If the session is running, its delegate
    /// gets it, on `delegateQueue`.
    public func sensorDelivers(frame number: Int) {
        guard isRunning else { return }
        let frame = CameraFrame(number: number)
        call("the delegate's cameraSession(_:didOutput:) with frame \(number)") { [weak self] in
            guard let self else { return }
            self.delegate?.cameraSession(self, didOutput: frame)
        }
    }

    /// Runs `callback` on the delegate queue, traced, and counted by the simulated world.
    private func call(_ what: String, _ callback: @escaping () -> Void) {
        let trace = trace
        let returned = callbacksReturned
        ScheduledCallbacks.schedule(on: delegateQueue) {
            trace?("\(CameraSession.traceCalling)\(what) on \(CameraSession.delegateQueueLabel)")
            callback()
            trace?("\(CameraSession.traceReturned)\(what)")
            returned.increment()
        }
    }

    /// The start of the trace line written before a callback.
    public static let traceCalling = "LegacyCameraSDK: calling "
    /// The start of the trace line written after a callback returned.
    public static let traceReturned = "LegacyCameraSDK: returned from "
}
