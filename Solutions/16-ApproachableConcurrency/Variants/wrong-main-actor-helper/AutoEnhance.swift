import SimulatedWorld

/// Enhances every tile of `photo`, one after another, checking for cancellation between
/// tiles. Each tile is CPU-heavy work, so this runs off the main actor.
@concurrent func enhanceTiles(of photo: RawPhoto, with engine: PixelEngine) async throws -> EnhancedPhoto {
    var tiles: [EnhancedTile] = []
    for index in 0..<photo.tileCount {
        try Task.checkCancellation()
        tiles.append(await enhanceTile(index, of: photo, with: engine))
    }
    return EnhancedPhoto(id: photo.id, tiles: tiles)
}

/// One tile's work, in a helper of its own.
func enhanceTile(_ index: Int, of photo: RawPhoto, with engine: PixelEngine) -> EnhancedTile {
    engine.enhance(tile: index, of: photo)
}
