/// What the export screen's controls say: the quality slider and the watermark field.
///
/// Fixed: a struct. Every task that gets the settings gets its own copy, so moving the slider
/// during an export changes the next export, not this one. Its properties are `Sendable`, so
/// the struct is too; being public, it says so.
public struct ExportSettings: Sendable {
    /// The JPEG quality, from 0 to 1.
    public var quality: Double
    /// The text stamped on every photo, if any.
    public var watermark: String?

    public init(quality: Double = 0.8, watermark: String? = nil) {
        self.quality = quality
        self.watermark = watermark
    }
}
