import Dispatch
@preconcurrency import LegacyCameraSDK
import SimulatedWorld
import Testing

/// Records what the session hands its delegate, and on which queue. Nonisolated, like the
/// delegate a Swift 5 app would write.
private final class RecordingDelegate: CameraSessionDelegate, Sendable {
    let frames = Locked<[(number: Int, onDelegateQueue: Bool, onMainQueue: Bool)]>([])
    let key: DispatchSpecificKey<Bool>

    init(key: DispatchSpecificKey<Bool>) { self.key = key }

    func cameraSession(_ session: CameraSession, didOutput frame: CameraFrame) {
        let onDelegateQueue = DispatchQueue.getSpecific(key: key) == true
        frames.withLock { $0.append((frame.number, onDelegateQueue, MainQueue.isCurrent)) }
    }
}

@Suite("Simulated world: the legacy camera SDK")
struct LegacyCameraSDKTests {
    @Test("Frames reach the delegate on the session's queue, in order, only while it runs")
    func framesOnTheDelegateQueue() async {
        let lines = Locked<[String]>([])
        let session = CameraSession(trace: { @Sendable line in lines.withLock { $0.append(line) } })
        let key = DispatchSpecificKey<Bool>()
        session.delegateQueue.setSpecific(key: key, value: true)
        let delegate = RecordingDelegate(key: key)
        session.delegate = delegate
        session.sensorDelivers(frame: 0)  // not running yet: dropped
        session.startRunning()
        session.sensorDelivers(frame: 1)
        session.sensorDelivers(frame: 2)
        session.stopRunning()
        session.sensorDelivers(frame: 3)  // stopped: dropped
        await session.callbacksReturned.reach(2)
        let frames = delegate.frames.withLock { $0 }
        #expect(frames.map(\.number) == [1, 2])
        #expect(frames.allSatisfy { $0.onDelegateQueue && !$0.onMainQueue })
        let trace = lines.withLock { $0 }
        #expect(trace.count == 4)
        #expect(trace.first?.hasPrefix(CameraSession.traceCalling) == true)
        #expect(trace.last?.hasPrefix(CameraSession.traceReturned) == true)
    }

    @Test("A photo's completion runs on the session's queue, with ids photo-1, photo-2…")
    func photoCompletionOnTheDelegateQueue() async {
        let session = CameraSession()
        let key = DispatchSpecificKey<Bool>()
        session.delegateQueue.setSpecific(key: key, value: true)
        let photos = Locked<[(id: String, onDelegateQueue: Bool)]>([])
        for _ in 1...2 {
            session.capturePhoto { @Sendable photo in
                let onQueue = DispatchQueue.getSpecific(key: key) == true
                photos.withLock { $0.append((photo.id, onQueue)) }
            }
        }
        await session.callbacksReturned.reach(2)
        let taken = photos.withLock { $0 }
        #expect(taken.map(\.id) == ["photo-1", "photo-2"])
        #expect(taken.allSatisfy { $0.onDelegateQueue })
    }
}
