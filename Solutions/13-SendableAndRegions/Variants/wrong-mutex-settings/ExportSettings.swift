import Synchronization

/// What the export screen's controls say: the quality slider and the watermark field.
public final class ExportSettings: Sendable {
    private struct Values {
        var quality: Double
        var watermark: String?
    }

    private let values: Mutex<Values>

    public init(quality: Double = 0.8, watermark: String? = nil) {
        values = Mutex(Values(quality: quality, watermark: watermark))
    }

    /// The JPEG quality, from 0 to 1.
    public var quality: Double {
        get { values.withLock { $0.quality } }
        set { values.withLock { $0.quality = newValue } }
    }

    /// The text stamped on every photo, if any.
    public var watermark: String? {
        get { values.withLock { $0.watermark } }
        set { values.withLock { $0.watermark = newValue } }
    }
}
