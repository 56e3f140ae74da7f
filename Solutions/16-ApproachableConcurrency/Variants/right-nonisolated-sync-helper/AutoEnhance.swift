import SimulatedWorld

/// Enhances every tile of `photo`, one after another, checking for cancellation between
/// tiles. Each tile is CPU-heavy work, so this runs off the main actor.
///
/// Right fix: `@concurrent`, with the per-tile work in a synchronous `nonisolated` helper,
/// which runs where it is called from: on the concurrent pool.
@concurrent func enhanceTiles(of photo: RawPhoto, with engine: PixelEngine) async throws -> EnhancedPhoto {
    var tiles: [EnhancedTile] = []
    for index in 0..<photo.tileCount {
        try Task.checkCancellation()
        tiles.append(enhanceTile(index, of: photo, with: engine))
    }
    return EnhancedPhoto(id: photo.id, tiles: tiles)
}

/// One tile's work. `nonisolated`: in this module a plain function would be on the main actor.
nonisolated func enhanceTile(_ index: Int, of photo: RawPhoto, with engine: PixelEngine) -> EnhancedTile {
    engine.enhance(tile: index, of: photo)
}
