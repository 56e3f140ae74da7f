import Dispatch
import SimulatedWorld

/// Enhances every tile of `photo`, one after another, checking for cancellation between
/// tiles. Each tile is CPU-heavy work, so this runs off the main actor.
nonisolated func enhanceTiles(of photo: RawPhoto, with engine: PixelEngine) async throws -> EnhancedPhoto {
    // The heavy loop goes to a background queue.
    try DispatchQueue.global(qos: .userInitiated).sync {
        var tiles: [EnhancedTile] = []
        for index in 0..<photo.tileCount {
            try Task.checkCancellation()
            tiles.append(engine.enhance(tile: index, of: photo))
        }
        return EnhancedPhoto(id: photo.id, tiles: tiles)
    }
}
