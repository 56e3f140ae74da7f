import SimulatedWorld

/// Saves the photos `ids` to `cameraRoll`, one after the other, and shows on `progress` how
/// many are done. Returns once every photo is saved.
///
/// Fix: `progress` belongs to the caller (the screen's progress bar, on the main actor). With an
/// `isolated` parameter defaulting to `#isolation`, the function runs on its caller's actor, so the
/// progress bar never leaves it: nothing is sent across an isolation boundary.
public func exportPhotos(
    _ ids: [String], to cameraRoll: CameraRoll, progress: ProgressBar,
    isolation: isolated (any Actor)? = #isolation
) async {
    progress.setProgress(0, of: ids.count)
    for (index, id) in ids.enumerated() {
        progress.setProgress(index + 1, of: ids.count)
        await cameraRoll.save(id)
    }
}

extension CameraScreen {
    /// Exports every photo taken so far to the camera roll, showing the progress on
    /// `exportProgress`. Returns once the export is done.
    public func exportAll() async {
        await exportPhotos(photoIDs, to: cameraRoll, progress: exportProgress)
    }
}
