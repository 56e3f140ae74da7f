import SimulatedWorld

/// The ride log, for the sync after the ride: every fix the bike computer recorded, in order,
/// read from the device's memory.
///
/// The sync uploads the fixes in batches, far more slowly than Bluetooth delivers them. The
/// app may hold at most `BikeComputer.appMemoryLimit` fixes that the sync has not taken yet;
/// the device has room for the whole ride, so the rest can wait there.
///
/// Exercise: the sync gets every fix. Run `swift run workbook check 18` to see how many of
/// them sit in the app's memory while the sync is busy.
@MainActor
public func loggedFixes(from device: BikeComputer) -> AsyncStream<LocationFix> {
    AsyncStream { continuation in
        // One fast transfer rather than a Bluetooth round trip per fix.
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
