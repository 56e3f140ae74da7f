import SimulatedWorld

/// Saves the photos `ids` to `cameraRoll`, one after the other, and shows on `progress` how
/// many are done. Returns once every photo is saved.
public func exportPhotos(_ ids: [String], to cameraRoll: CameraRoll, progress: ProgressBar) async {
    progress.setProgress(0, of: ids.count)
    for (index, id) in ids.enumerated() {
        await cameraRoll.save(id)
        progress.setProgress(index + 1, of: ids.count)
    }
}

extension CameraScreen {
    /// Exports every photo taken so far to the camera roll, showing the progress on
    /// `exportProgress`. Returns once the export is done.
    public func exportAll() async {
        nonisolated(unsafe) let progress = exportProgress
        await exportPhotos(photoIDs, to: cameraRoll, progress: progress)
    }
}
