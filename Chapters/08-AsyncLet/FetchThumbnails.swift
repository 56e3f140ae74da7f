import SimulatedWorld

/// Fetches the thumbnail of every id, one after the other, and returns them by id.
/// Throws the first error, and asks for nothing after it.
///
/// Warm-up exercise: this "async version" only wraps the old completion-handler function.
/// It compiles and works when nothing goes wrong. Run
/// `swift run workbook check 08` (or `swift test --filter Ch08AsyncLetTests`) to see what it
/// loses, then rewrite it as a plain
/// loop. Read Chapters/08-AsyncLet/README.md first.
public func fetchThumbnails(
    for ids: [String], from service: ThumbnailService
) async throws -> [String: Thumbnail] {
    await withCheckedContinuation { continuation in
        fetchThumbnails(for: ids, from: service) { result in
            continuation.resume(returning: (try? result.get()) ?? [:])
        }
    }
}
