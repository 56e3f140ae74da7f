import Dispatch
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
    static let neverCalled = reading.lesson(
        "the completion handler is never called",
        "for this answer fetchPhoto never called the handler: a path ends (a `return`, a `guard … else { return }`) without calling `completion`, so the caller waits for ever; every path must call it exactly once",
        section: "Exactly once: the missing return")
    static let callbackNeverReturns = reading.lesson(
        "the data task's callback never returns",
        "the closure fetchPhoto gives to dataTask(with:) is still running on the service's queue; it must not block (waiting for the main queue, say) but hop with DispatchQueue.main.async",
        section: "Always on the main queue")
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
    static let asksMoreThanOnce = reading.lesson(
        "fetchPhoto asks the server more than once",
        "one call of fetchPhoto should make one request, whatever the answer; a second data task (a retry, say) doubles the traffic and is not what the caller asked for",
        section: "Three mistakes in eleven lines")
    static let sequenceBroken = reading.lesson(
        "a fetch in a sequence does not get its own answer",
        "each call of fetchPhoto makes one request and calls its handler once, on the main queue, with its own answer, whatever the fetches before it got; nothing is remembered from one call to the next",
        section: "Your task")
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
struct Delivery: Sendable, CustomStringConvertible {
    let photo: Photo?
    let error: (any Error)?
    let onMainQueue: Bool
    var isNeither: Bool { photo == nil && error == nil }

    var description: String {
        let photo = self.photo.map { "\($0)" } ?? "nil"
        let error = self.error.map { "\($0)" } ?? "nil"
        return "(\(photo), \(error)) \(onMainQueue ? "on" : "off") the main queue"
    }
}

/// The calls a completion handler got, as they came.
final class HandlerCalls: Sendable {
    private let calls = Locked<[Delivery]>([])
    /// How many calls have come so far.
    let count = ObservedCount()

    var all: [Delivery] { calls.withLock { $0 } }

    func record(_ photo: Photo?, _ error: (any Error)?) {
        let call = Delivery(photo: photo, error: error, onMainQueue: MainQueue.isCurrent)
        calls.withLock { $0.append(call) }
        count.increment()
    }
}

/// Calls `fetchPhoto(url:completion:)` on a service scripted with `outcome` and returns every
/// call of the handler.
///
/// It waits, bounded, for the request, for the first call of the handler (however many hops
/// it takes to arrive), and for the service's callback to return. A handler that is never
/// called records ``Bugs/neverCalled`` and gives `[]`. Only a failing fix pays those waits.
/// Then it lets any second call arrive (see ``letPendingWorkRun(_:)``), and checks that the
/// loader made one request.
private func deliveries(for outcome: PhotoService.Outcome) async -> [Delivery] {
    let service = PhotoService(always: outcome)
    let handler = HandlerCalls()
    PhotoLoader(service: service).fetchPhoto(url: PhotoService.url(ofPhoto: 1)) { photo, error in
        handler.record(photo, error)
    }
    let asked = await awaitResult(of: { await service.requests.reach(1) }, orRecord: Bugs.neverFetches)
    guard asked != nil else { return [] }
    if case .stillSuspended = await withinHangLimit(hangLimit, { await handler.count.reach(1) }) {
        Bugs.neverCalled.record("  Scripted answer: \(outcome). The handler was called 0 times.")
        return []
    }
    await awaitResult(of: { await service.callbacksReturned.reach(1) }, orRecord: Bugs.callbackNeverReturns)
    await letPendingWorkRun(handler)
    let requests = service.requests.value
    if requests > 1 {
        Bugs.asksMoreThanOnce.record("  Scripted answer: \(outcome). fetchPhoto made \(requests) requests.")
    }
    return handler.all
}

/// Lets work the fix queued before or with its first call run, so that a second call has
/// every chance to show up before the test counts.
///
/// A fix may reach the handler through any number of hops (the main queue, a global queue,
/// the main queue again), so this does not drain a fixed number of times. It runs rounds
/// of "a global queue has run a block queued now, then the main queue has run everything
/// queued before it" until four rounds in a row bring no new call. A single call can only
/// stay single, so a correct fix passes whatever its hops; a second call queued through the
/// same hops as the first lands within those rounds.
func letPendingWorkRun(_ handler: HandlerCalls) async {
    await letPendingWorkRun { handler.count.value }
}

/// Like ``letPendingWorkRun(_:)``, counting the calls with `count` (of several handlers, say).
func letPendingWorkRun(counting count: () -> Int) async {
    var quietRounds = 0
    var rounds = 0
    while quietRounds < 4, rounds < 100 {
        let before = count()
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume() }
        }
        await MainQueue.drain()
        quietRounds = count() == before ? quietRounds + 1 : 0
        rounds += 1
    }
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
            let calls = await deliveries(for: outcome)
            // Zero calls were already reported by `deliveries` as a handler never called.
            #expect(
                calls.count <= 1,
                comment(
                    Bugs.notExactlyOnce, outcome,
                    " The handler was called \(calls.count) times: "
                        + calls.map(\.description).joined(separator: ", then ") + "."))
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
        if let undecodable = await deliveries(for: .undecodableData).first {
            #expect(
                undecodable.error as? PhotoError == .undecodableImage,
                comment(Bugs.undecodableUnnamed, .undecodableData, " The first call was \(undecodable)."))
        }
    }

    @Test("The first call carries the photo, the transport error, or invalidServerResponse")
    func firstCallCarriesTheAnswer() async {
        if let photo = await deliveries(for: .photo(.sample(3))).first {
            #expect(
                photo.photo == .sample(3) && photo.error == nil,
                comment(Bugs.wrongAnswer, .photo(.sample(3)), " The first call was \(photo)."))
        }
        if let offline = await deliveries(for: .failure(.offline)).first {
            #expect(
                offline.error as? PhotoServiceError == .offline,
                comment(Bugs.wrongAnswer, .failure(.offline), " The first call was \(offline)."))
        }
        if let notFound = await deliveries(for: .status(404)).first {
            #expect(
                notFound.error as? PhotoError == .invalidServerResponse,
                comment(Bugs.wrongAnswer, .status(404), " The first call was \(notFound)."))
        }
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
            "the calling task was cancelled; the request should be cancelled too, and the call should throw an error that says so: URLError(.cancelled), as data(from:) throws, or CancellationError",
            section: "Recognising a cancelled request")

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

        /// Whether `error` says "cancelled", in either of the two ways Swift code hears it.
        private static func isCancellation(_ error: any Error) -> Bool {
            error is CancellationError || (error as? URLError)?.code == .cancelled
        }

        @Test("Cancelling the calling task cancels the request and throws a cancellation error")
        func honoursCancellation() async {
            let service = PhotoService(always: .noAnswer)
            let loader = PhotoLoader(service: service)
            let fetch = Task { try await loader.fetchPhoto(url: PhotoService.url(ofPhoto: 5)) }
            await awaitResult(of: { await service.requests.reach(1) }, orRecord: Bugs.neverFetches)
            fetch.cancel()
            let result = await awaitResult(of: { try await fetch.value }, orRecord: Self.ignoresCancellation)
            if case .failure(let error)? = result {
                #expect(Self.isCancellation(error), Self.ignoresCancellation.comment)
            } else if let result {
                Self.ignoresCancellation.record("  fetchPhoto returned \(result) instead of throwing.")
            }
            #expect(service.cancellations.value == 1, Self.ignoresCancellation.comment)
        }

        @Test("A task cancelled before it calls fetchPhoto throws at once and makes no request")
        func cancelledBeforeItStarts() async {
            let service = PhotoService(always: .photo(.sample(5)))
            let loader = PhotoLoader(service: service)
            let fetch = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await loader.fetchPhoto(url: PhotoService.url(ofPhoto: 5))
            }
            let result = await awaitResult(of: { try await fetch.value }, orRecord: Self.ignoresCancellation)
            if case .failure(let error)? = result {
                #expect(Self.isCancellation(error), Self.ignoresCancellation.comment)
            } else if let result {
                Self.ignoresCancellation.record("  fetchPhoto returned \(result) instead of throwing.")
            }
            #expect(service.requests.value == 0, Self.ignoresCancellation.comment)
        }
    }
#endif
