import Foundation
import SimulatedWorld
import Testing
import WorkbookTesting

#if Solutions
    import Ch04CompletionHandlersSolution
#else
    import Ch04CompletionHandlers
#endif

private let reading = ChapterReading("04-CompletionHandlers")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    static let notExactlyOnce = reading.lesson(
        "the completion handler is not called exactly once",
        "after a transport error the code carries on (there is no `return`) and calls the handler a second time, with a different error",
        section: "Exactly once: the missing return")
    static let offMainQueue = reading.lesson(
        "the completion handler runs off the main queue",
        "only the success path hops to DispatchQueue.main; the error paths call the handler on the service's background queue, where UI code must not run",
        section: "Always on the main queue")
    static let neitherPhotoNorError = reading.lesson(
        "the completion handler gets (nil, nil)",
        "the server sent bytes that are not a photo, Photo(data:) returned nil, and the handler got neither a photo nor an error",
        section: "Never nil and nil")
    static let undecodableUnnamed = reading.lesson(
        "undecodable data is not reported as PhotoError.undecodableImage",
        "when the bytes are not a photo, the caller should get that named error",
        section: "Never nil and nil")
    static let wrongAnswer = reading.lesson(
        "the handler's first call does not carry the service's answer",
        "a photo should arrive as the photo, a transport error as that error, a bad status as PhotoError.invalidServerResponse",
        section: "Three mistakes in eleven lines")
    static let neverFetches = reading.lesson(
        "fetchPhoto never asks the service",
        "fetchPhoto must create a data task and call resume() on it",
        section: "Three mistakes in eleven lines")
}

/// Every answer the service can give, each checked against every rule.
private let scriptedOutcomes: [PhotoService.Outcome] = [
    .photo(.sample(1)), .failure(.offline), .status(404), .undecodableData,
]

/// One call of the completion handler, as the test saw it.
private struct Delivery: Sendable {
    let photo: Photo?
    let error: (any Error)?
    let onMainQueue: Bool
    var isNeither: Bool { photo == nil && error == nil }
}

/// Calls `fetchPhoto(url:completion:)` on a service scripted with `outcome` and returns every
/// call of the handler, once no more can come: the service's callback has returned and the
/// main queue has run what was hopped onto it (twice, for a hop inside a hop).
private func deliveries(
    for outcome: PhotoService.Outcome, eachCall: @escaping @Sendable () -> Void = {}
) async -> [Delivery] {
    let service = PhotoService(always: outcome)
    let calls = Locked<[Delivery]>([])
    PhotoLoader(service: service).fetchPhoto(url: PhotoService.url(ofPhoto: 1)) { photo, error in
        calls.withLock { $0.append(Delivery(photo: photo, error: error, onMainQueue: MainQueue.isCurrent)) }
        eachCall()
    }
    await awaitResult(of: { await service.callbacksReturned.reach(1) }, orRecord: Bugs.neverFetches)
    await MainQueue.drain()
    await MainQueue.drain()
    return calls.withLock { $0 }
}

/// `lesson`'s message, naming the scripted outcome it was seen with.
private func comment(_ lesson: Lesson, _ outcome: PhotoService.Outcome, _ detail: String = "") -> Comment {
    Comment(rawValue: "\(lesson.message)\n  Scripted answer: \(outcome).\(detail)")
}

@Suite("Chapter 04: three completion-handler mistakes in eleven lines")
struct PhotoLoaderTests {
    @Test("The handler is called exactly once, whatever the server answers", .exposesBug(Bugs.notExactlyOnce))
    func calledExactlyOnce() async {
        for outcome in scriptedOutcomes {
            await confirmation(comment(Bugs.notExactlyOnce, outcome), expectedCount: 1) { called in
                _ = await deliveries(for: outcome) { called() }
            }
        }
    }

    @Test("The handler always runs on the main queue", .exposesBug(Bugs.offMainQueue))
    func alwaysOnMainQueue() async {
        for outcome in scriptedOutcomes {
            let calls = await deliveries(for: outcome)
            let offMain = calls.filter { !$0.onMainQueue }.count
            #expect(
                offMain == 0,
                comment(Bugs.offMainQueue, outcome, " \(offMain) of \(calls.count) calls ran off the main queue."))
        }
    }

    @Test(
        "The handler never gets (nil, nil); undecodable data is PhotoError.undecodableImage",
        .exposesBug(Bugs.neitherPhotoNorError, Bugs.undecodableUnnamed))
    func neverNeitherPhotoNorError() async {
        for outcome in scriptedOutcomes {
            let calls = await deliveries(for: outcome)
            #expect(calls.allSatisfy { !$0.isNeither }, comment(Bugs.neitherPhotoNorError, outcome))
        }
        let undecodable = await deliveries(for: .undecodableData)
        #expect(
            undecodable.first?.error as? PhotoError == .undecodableImage,
            comment(Bugs.undecodableUnnamed, .undecodableData))
    }

    @Test("The first call carries the photo, the transport error, or invalidServerResponse")
    func firstCallCarriesTheAnswer() async {
        let photo = await deliveries(for: .photo(.sample(3))).first
        #expect(photo?.photo == .sample(3) && photo?.error == nil, comment(Bugs.wrongAnswer, .photo(.sample(3))))
        let offline = await deliveries(for: .failure(.offline)).first
        #expect(offline?.error as? PhotoServiceError == .offline, comment(Bugs.wrongAnswer, .failure(.offline)))
        let notFound = await deliveries(for: .status(404)).first
        #expect(notFound?.error as? PhotoError == .invalidServerResponse, comment(Bugs.wrongAnswer, .status(404)))
    }
}

#if Solutions
    /// The async version exists only in the solution: with it, the compiler keeps all three rules.
    @Suite("Chapter 04 solution: fetchPhoto(url:) async throws")
    struct AsyncPhotoLoaderTests {
        static let asyncWrongAnswer = reading.lesson(
            "the async fetchPhoto does not return or throw the service's answer",
            "it should return the photo, or throw the transport error, invalidServerResponse or undecodableImage",
            section: "The async version")
        static let ignoresCancellation = reading.lesson(
            "the async fetchPhoto ignores cancellation",
            "the calling task was cancelled; the request should be cancelled too, and the call should throw CancellationError",
            section: "The async version")

        private func fetch(_ outcome: PhotoService.Outcome) async -> Result<Photo, any Error>? {
            let loader = PhotoLoader(service: PhotoService(always: outcome))
            return await awaitResult(
                of: { try await loader.fetchPhoto(url: PhotoService.url(ofPhoto: 2)) },
                orRecord: Self.asyncWrongAnswer)
        }

        @Test("It returns the photo, or throws the reason there is none")
        func returnsOrThrows() async {
            let lesson = Self.asyncWrongAnswer.comment
            let photo = await fetch(.photo(.sample(2)))
            let offline = await fetch(.failure(.offline))
            let serverError = await fetch(.status(500))
            let undecodable = await fetch(.undecodableData)
            #expect(photo?.value == .sample(2), lesson)
            #expect(throws: PhotoServiceError.offline, lesson) { try offline?.get() }
            #expect(throws: PhotoError.invalidServerResponse, lesson) { try serverError?.get() }
            #expect(throws: PhotoError.undecodableImage, lesson) { try undecodable?.get() }
        }

        @Test("Cancelling the calling task cancels the request and throws CancellationError")
        func honoursCancellation() async {
            let service = PhotoService(always: .noAnswer)
            let loader = PhotoLoader(service: service)
            let fetch = Task { try await loader.fetchPhoto(url: PhotoService.url(ofPhoto: 5)) }
            await awaitResult(of: { await service.requests.reach(1) }, orRecord: Bugs.neverFetches)
            fetch.cancel()
            let result = await awaitResult(of: { try await fetch.value }, orRecord: Self.ignoresCancellation)
            #expect(throws: CancellationError.self, Self.ignoresCancellation.comment) { try result?.get() }
            #expect(service.cancellations.value == 1, Self.ignoresCancellation.comment)
        }
    }
#endif
