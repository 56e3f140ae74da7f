import SimulatedWorld

/// The upload screen: a progress bar and a "42 %" label, both following the upload.
///
/// Wrong fix: one loop for the bar and the label, and it checks for the cancel, but after it
/// has shown the value: the first value a cancelled task is handed still shows.
@MainActor
public final class UploadScreen {
    let bar: ProgressDisplay
    let label: ProgressDisplay
    private var watching: Task<Void, Never>?

    public init(bar: ProgressDisplay, label: ProgressDisplay) {
        self.bar = bar
        self.label = label
    }

    /// Shows the progress of `upload` in the bar and in the label, until it completes.
    public func watch(_ upload: RideUpload) {
        watching?.cancel()
        let progress = uploadProgress(of: upload)
        watching = Task {
            for await fraction in progress {
                bar.show(fraction)
                label.show(fraction)
                if Task.isCancelled { break }
            }
        }
    }

    /// The screen closes: it stops following the upload.
    public func close() {
        watching?.cancel()
        watching = nil
    }
}
