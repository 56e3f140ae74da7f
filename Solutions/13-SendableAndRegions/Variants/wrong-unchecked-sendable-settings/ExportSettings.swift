/// What the export screen's controls say: the quality slider and the watermark field.
public final class ExportSettings: @unchecked Sendable {
    /// The JPEG quality, from 0 to 1.
    public var quality: Double
    /// The text stamped on every photo, if any.
    public var watermark: String?

    public init(quality: Double = 0.8, watermark: String? = nil) {
        self.quality = quality
        self.watermark = watermark
    }
}
