import Foundation
import Testing
import WorkbookTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if Solutions
    import Ch06AsyncNetworkingSolution
#else
    import Ch06AsyncNetworking
#endif

private let reading = ChapterReading("06-AsyncNetworking")

/// What can go wrong in this chapter, in the learner's words.
enum Bugs {
    // fetchFavorites
    static let errorStatusDecoded = reading.lesson(
        "a non-2xx response is decoded as if it succeeded",
        "data(for:) returns whatever the server answered; fetchFavorites() must throw PhotoAPIError.unexpectedStatus(status) instead of decoding an error answer",
        section: "Check the status before you decode")
    static let favoritesLost = reading.lesson(
        "fetchFavorites() does not return the favorites of a successful answer",
        "every 2xx status is a success, and its body is the list of favorites",
        section: "Check the status before you decode")
    static let notSuccessAccepted = reading.lesson(
        "an answer that is not 2xx is taken as a success",
        "only 200...299 is a success; a 3xx that reaches your code, such as 300, is an answer URLSession did not follow, so the call must throw PhotoAPIError.unexpectedStatus(status) instead of using its body",
        section: "Check the status before you decode")
    // downloadArchive
    static let temporaryFileLeft = reading.lesson(
        "the downloaded temporary file is left behind",
        "download(for:) hands over a temporary file that the caller owns; on this path nobody moved or removed it, so every call leaks one file",
        section: "The temporary file is yours")
    static let destinationNotReplaced = reading.lesson(
        "an archive already at the destination is not replaced",
        "last time's archive was still there, and moveItem(at:to:) refuses to overwrite it; the new download must take its place",
        section: "The temporary file is yours")
    static let archiveWrong = reading.lesson(
        "downloadArchive() does not deliver the archive as it should",
        "a 2xx download must end up at the destination; any other status must throw PhotoAPIError.unexpectedStatus and leave the destination alone",
        section: "The temporary file is yours")
    // loadPhotoPage
    static let transferNotCancelled = reading.lesson(
        "cancelling the Task does not cancel the transfer",
        "the Task running loadPhotoPage() was cancelled while the photo was downloading, but the server never saw that transfer cancelled; the download went on for nobody",
        section: "A Task is not a URLSessionTask")
    static let secondRequestStarted = reading.lesson(
        "the comments request starts after the Task was cancelled",
        "once the Task is cancelled, loadPhotoPage() must stop, and must not send its next request",
        section: "A Task is not a URLSessionTask")
    static let startsWhenAlreadyCancelled = reading.lesson(
        "loadPhotoPage() starts a transfer for a Task that is already cancelled",
        "the Task was cancelled before loadPhotoPage() was called, yet a data task was resumed; onCancel runs at once, before the data task exists, so remember the cancel and never resume a task created after it",
        section: "Cancelled before it starts")
    static let cancelSwallowed = reading.lesson(
        "loadPhotoPage() hides the cancel and returns a page",
        "the transfer was cancelled, but loadPhotoPage() turned the error into a value and returned a page to a Task nobody waits for; let URLError(.cancelled) propagate",
        section: "A Task is not a URLSessionTask")
    static let wrongErrorOnCancel = reading.lesson(
        "a cancelled loadPhotoPage() throws something other than a cancellation error",
        "a cancelled transfer fails with URLError(.cancelled) (CancellationError says the same); pass it on unchanged, so the caller can tell a cancel from a failure",
        section: "A Task is not a URLSessionTask")
    static let failureHidden = reading.lesson(
        "loadPhotoPage() hides a failed request",
        "when the photo's or the comments' transfer fails, loadPhotoPage() throws that error as it is, and sends no request after it; the screen decides what to show",
        section: "A Task is not a URLSessionTask")
    static let pageNeverEnds = reading.lesson(
        "loadPhotoPage() never finishes",
        "the caller is still suspended: a continuation was not resumed",
        section: "A Task is not a URLSessionTask")
    static let pageWrong = reading.lesson(
        "loadPhotoPage() does not return the photo and its comments",
        "without a cancel, the page is the photo from /photos/<id> and the comments from /photos/<id>/comments, fetched in that order",
        section: "A Task is not a URLSessionTask")
    static let crashed = reading.lesson(
        "the page loader crashed the process",
        "a continuation must be resumed exactly once, also when the transfer is cancelled",
        section: "A Task is not a URLSessionTask")
    // uploadPhoto
    static let uploadSentAsGET = reading.lesson(
        "the upload is a GET, and URLSession won't send a GET with a body",
        "upload(for:from:) takes the method from the URLRequest, and a new URLRequest says GET; URLSession fails a GET that carries a body with URLError .dataLengthExceedsMaximum (-1103) before anything reaches the server. Set request.httpMethod = \"POST\" so that the service sees an upload",
        section: "An upload has no method of its own")
    static let uploadWrong = reading.lesson(
        "uploadPhoto() does not deliver the photo as it should",
        "uploadPhoto() sends the JPEG as the body of POST /photos and returns the summary of the 201 answer",
        section: "An upload has no method of its own")
    static let uploadIgnoresCancel = reading.lesson(
        "uploadPhoto() goes on after its Task was cancelled",
        "upload(for:from:) stops its transfer when the calling Task is cancelled and throws URLError(.cancelled); call it in that Task (not in a Task {} of its own) and let the error through, so nothing is sent after the cancel",
        section: "A Task is not a URLSessionTask")
    // FavoritesClient
    static let promptForEveryChallenge = reading.lesson(
        "the sign-in sheet appears for requests that do not need it",
        "a session-wide delegate answers every challenge of every request, including the server-trust challenge of the public photo; only the favorite request's sign-in challenge should ask the user",
        section: "A delegate for one request")
    static let cancelledSignInProceeds = reading.lesson(
        "a cancelled sign-in does not cancel the challenge",
        "the user tapped Cancel, but the request went on without a credential; answer .cancelAuthenticationChallenge so that favorite(photoID:) fails as cancelled",
        section: "When the user cancels")
    static let clientWrong = reading.lesson(
        "the photo client does not do its job",
        "photo(id:) returns the public photo; favorite(photoID:) signs in with the credential the user typed and succeeds",
        section: "A delegate for one request")
}

/// `function` asked the server for the same thing more than once.
func requestRepeated(in function: String, section: String) -> Lesson {
    reading.lesson(
        "\(function) sent the same request more than once",
        "each call asks the server once, on every path (success, an error status, a cancel): a second request costs the user's data and the server's time, and repeats whatever the first one did",
        section: section)
}

/// Checks that the server received exactly `expected`; if it received a request twice, says
/// so with `function`'s name. Returns whether it did.
@discardableResult
func expectRequests(
    _ received: [String], are expected: [String], from function: String, section: String,
    otherwise lesson: Lesson, sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    guard received != expected else { return true }
    if Set(received).count < received.count {
        requestRepeated(in: function, section: section).record(
            "The server received: \(received)", sourceLocation: sourceLocation)
    } else {
        lesson.record("Expected \(expected); the server received: \(received)", sourceLocation: sourceLocation)
    }
    return false
}

/// Whether `error` says "cancelled", as URLSession (`URLError.cancelled`) or Swift concurrency does.
func isCancellation(_ error: any Error) -> Bool {
    error is CancellationError || (error as? URLError)?.code == .cancelled
}

/// A photo and its JSON, as the simulated service sends it.
let harbour = PhotoSummary(id: "7", title: "Harbour at dawn")
let harbourJSON = #"{"id":"7","title":"Harbour at dawn"}"#
