import SimulatedWorld

/// The upload screen: a progress bar and a "42 %" label, both following the upload.
///
/// Right fix: one stream for each consumer. The bar and the label keep a loop each, and each loop
/// reads a stream of its own, so both get every newest fraction; each stops at the cancel.
@MainActor
public final class UploadScreen {
    let bar: ProgressDisplay
    let label: ProgressDisplay
    private var watching: [Task<Void, Never>] = []

    public init(bar: ProgressDisplay, label: ProgressDisplay) {
        self.bar = bar
        self.label = label
    }

    /// Shows the progress of `upload` in the bar and in the label, until it completes.
    public func watch(_ upload: RideUpload) {
        close()
        // One stream per consumer: each loop has a buffer of its own.
        let forBar = uploadProgress(of: upload)
        let forLabel = uploadProgress(of: upload)
        watching = [
            Task { for await fraction in forBar where !Task.isCancelled { bar.show(fraction) } },
            Task { for await fraction in forLabel where !Task.isCancelled { label.show(fraction) } },
        ]
    }

    /// The screen closes: it stops following the upload.
    public func close() {
        for task in watching { task.cancel() }
        watching = []
    }
}
