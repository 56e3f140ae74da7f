import SimulatedWorld

/// The upload screen: a progress bar and a "42 %" label, both following the upload.
///
/// Exercise: the screen follows the upload. Run `swift run workbook check 18` to see what the
/// bar and the label show when the upload completes.
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
        let progress = uploadProgress(of: upload)
        // The bar animates each change; the label must not wait for the animation.
        watching.append(Task { for await fraction in progress { bar.show(fraction) } })
        watching.append(Task { for await fraction in progress { label.show(fraction) } })
    }

    /// The screen closes: it stops following the upload.
    public func close() {
        for task in watching { task.cancel() }
        watching = []
    }
}
