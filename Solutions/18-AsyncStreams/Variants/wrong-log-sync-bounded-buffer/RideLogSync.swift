import SimulatedWorld

/// The ride log, for the sync after the ride: every fix the bike computer recorded, in order,
/// read from the device's memory.
@MainActor
public func loggedFixes(from device: BikeComputer) -> AsyncStream<LocationFix> {
    // Never more than the app may hold.
    AsyncStream(bufferingPolicy: .bufferingOldest(BikeComputer.appMemoryLimit)) { continuation in
        device.transferLog { event in
            switch event {
            case .fix(let fix):
                continuation.yield(fix)
            case .end:
                continuation.finish()
            }
        }
    }
}
