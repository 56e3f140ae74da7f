import SimulatedWorld

/// Enhances every tile of `photo`, one after another, checking for cancellation between
/// tiles. Each tile is CPU-heavy work, so this runs off the main actor: the screen must not
/// freeze while it works.
///
/// Solution: `@concurrent`. With NonisolatedNonsendingByDefault, a `nonisolated` async
/// function runs on its caller's actor, so called from the model it ran on the main actor.
/// `@concurrent` always runs on the concurrent pool. It stays a call in the caller's task,
/// so cancelling the caller still stops it at the next tile. Its arguments are `Sendable`
/// values, and the engine is a `Sendable` class, so nothing main-actor-owned crosses.
@concurrent func enhanceTiles(of photo: RawPhoto, with engine: PixelEngine) async throws -> EnhancedPhoto {
    var tiles: [EnhancedTile] = []
    for index in 0..<photo.tileCount {
        try Task.checkCancellation()
        tiles.append(engine.enhance(tile: index, of: photo))
    }
    return EnhancedPhoto(id: photo.id, tiles: tiles)
}
