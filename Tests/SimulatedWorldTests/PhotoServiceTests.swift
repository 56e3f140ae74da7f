import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

/// One call of a data task's completion handler.
private struct Callback: Sendable {
    let data: Data?
    let statusCode: Int?
    let error: (any Error)?
    let onMainQueue: Bool
}

/// Every call a data task's completion handler got.
private final class Callbacks: Sendable {
    private let calls = Locked<[Callback]>([])
    var only: Callback? { calls.withLock { $0.count == 1 ? $0.first : nil } }

    /// Starts a data task on `service` that writes its handler's calls down here.
    func startTask(on service: PhotoService) -> PhotoDataTask {
        let task = service.dataTask(with: PhotoService.url(ofPhoto: 1)) { data, response, error in
            let call = Callback(
                data: data, statusCode: response?.statusCode, error: error, onMainQueue: MainQueue.isCurrent)
            self.calls.withLock { $0.append(call) }
        }
        task.resume()
        return task
    }
}

@Suite("PhotoService answers like URLSession, once, off the main queue")
struct PhotoServiceTests {
    @Test(
        "Each scripted outcome reaches the handler once, on a background queue",
        arguments: [PhotoService.Outcome.photo(.sample(4)), .failure(.offline), .status(404), .undecodableData])
    func outcomes(_ outcome: PhotoService.Outcome) async throws {
        let service = PhotoService(always: outcome)
        let callbacks = Callbacks()
        let task = callbacks.startTask(on: service)
        await service.callbacksReturned.reach(1)
        task.cancel()  // too late: the task has finished, so it is not counted
        let call = try #require(callbacks.only)
        #expect(!call.onMainQueue)
        #expect(service.requests.value == 1 && service.cancellations.value == 0)
        switch outcome {
        case .photo(let photo):
            #expect(call.data.flatMap(Photo.init(data:)) == photo && call.statusCode == 200 && call.error == nil)
        case .failure(let error):
            #expect(call.data == nil && call.statusCode == nil && call.error as? PhotoServiceError == error)
        case .status(let code):
            #expect(call.data != nil && call.statusCode == code && call.error == nil)
        case .undecodableData, .noAnswer:
            #expect(call.data.flatMap(Photo.init(data:)) == nil && call.statusCode == 200 && call.error == nil)
        }
    }

    @Test("Cancelling an unanswered task calls the handler once with URLError(.cancelled) and counts the cancel")
    func cancelUnanswered() async throws {
        let service = PhotoService(always: .noAnswer)
        let callbacks = Callbacks()
        let task = callbacks.startTask(on: service)
        task.cancel()
        task.cancel()
        await service.callbacksReturned.reach(1)
        let call = try #require(callbacks.only)
        #expect((call.error as? URLError)?.code == .cancelled)
        #expect(service.cancellations.value == 1)
    }

    @Test("data(from:) returns the bytes and the response")
    func asyncData() async throws {
        let service = PhotoService(always: .photo(.sample(6)))
        let (data, response) = try await service.data(from: PhotoService.url(ofPhoto: 6))
        #expect(Photo(data: data) == .sample(6) && response.statusCode == 200)
    }

    @Test("data(from:) in a task cancelled mid-request cancels it and throws URLError(.cancelled), like URLSession")
    func asyncDataCancelled() async {
        let service = PhotoService(always: .noAnswer)
        let fetch = Task { try await service.data(from: PhotoService.url(ofPhoto: 7)) }
        await service.requests.reach(1)
        fetch.cancel()
        let error = await #expect(throws: URLError.self) { try await fetch.value }
        #expect(error?.code == .cancelled)
        #expect(service.cancellations.value == 1)
    }

    @Test("data(from:) in a task that is already cancelled throws URLError(.cancelled) and makes no request")
    func asyncDataCancelledBeforeItStarts() async {
        let service = PhotoService(always: .photo(.sample(8)))
        let fetch = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await service.data(from: PhotoService.url(ofPhoto: 8))
        }
        let error = await #expect(throws: URLError.self) { try await fetch.value }
        #expect(error?.code == .cancelled)
        #expect(service.requests.value == 0)
    }
}
