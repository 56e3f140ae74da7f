import SimulatedWorld
import Testing
import WorkbookTesting

/// The thumbnails the service sends for `ids`, by id.
func expectedThumbnails(_ ids: [String]) -> [String: Thumbnail] {
    Dictionary(uniqueKeysWithValues: ids.map { ($0, Thumbnail.expected(for: $0)) })
}

/// Waits until `count` requests are in flight at once; records `lesson` and returns false
/// if they never are.
func awaitInFlight(
    _ count: Int, on service: ThumbnailService, orRecord lesson: Lesson,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> Bool {
    guard case .finished = await withinHangLimit(hangLimit, { await service.inFlight.reach(count) }) else {
        lesson.record(
            "Only \(service.inFlight.value) of \(count) requests were in flight at once.",
            sourceLocation: sourceLocation)
        return false
    }
    return true
}
