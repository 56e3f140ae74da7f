import Foundation
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

/// Whether `error` reports a cancel: `CancellationError` (from `Task.checkCancellation()`
/// and friends) or `URLError(.cancelled)` (from a URL-session-style request).
func isCancellation(_ error: any Error) -> Bool {
    error is CancellationError || (error as? URLError)?.code == .cancelled
}

/// Whether `result` is a thrown cancel, in either form.
func threwCancel<Value>(_ result: Result<Value, any Error>) -> Bool {
    if case .failure(let error) = result { return isCancellation(error) }
    return false
}

/// How a call ended, for a failure message.
func outcome<Value>(_ result: Result<Value, any Error>) -> String {
    switch result {
    case .success(let value as [String: Thumbnail]):
        return "it returned the thumbnails of [\(value.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", "))]"
    case .success:
        return "it returned normally"
    case .failure(let error):
        return describeThrown(error)
    }
}
