import SimulatedWorld

/// The upload screen: a progress bar and a "42 %" label, both following the upload.
///
/// Right fix: one loop for the bar and the label, and a task cancelled before it starts never
/// enters it. Once the loop waits in the stream, a cancel ends the stream at once, and the
/// body and close() both run on the main actor, so no value can arrive between them.
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
            guard !Task.isCancelled else { return }
            for await fraction in progress {
                bar.show(fraction)
                label.show(fraction)
            }
        }
    }

    /// The screen closes: it stops following the upload.
    public func close() {
        watching?.cancel()
        watching = nil
    }
}
