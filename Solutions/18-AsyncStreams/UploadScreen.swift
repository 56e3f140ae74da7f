import SimulatedWorld

/// The upload screen: a progress bar and a "42 %" label, both following the upload.
///
/// Solution: one stream, one consumer. Two loops over the same `AsyncStream` share its values
/// (each value goes to only one of them), so one loop updates both the bar and the label.
/// The loop checks for the cancel before it shows a value: a task cancelled before it started
/// still gets what the stream buffered in the meantime.
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
                if Task.isCancelled { break }
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
