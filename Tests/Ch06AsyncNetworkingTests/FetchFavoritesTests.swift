import Foundation
import SimulatedWorld
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

/// A real URLSession, answered by `server` through a URLProtocol stub.
private func fetch(from server: SimulatedHTTPServer) async -> Result<[PhotoSummary], any Error> {
    let session = server.makeURLSession()
    defer { session.finishTasksAndInvalidate() }
    do {
        return .success(try await fetchFavorites(from: server.baseURL, using: session))
    } catch {
        return .failure(error)
    }
}

@Suite("Chapter 06: fetchFavorites() checks the status before it decodes")
struct FetchFavoritesTests {
    @Test("A 2xx answer is decoded into the favorites", arguments: [200, 203])
    func successIsDecoded(status: Int) async {
        let server = SimulatedHTTPServer()
        server.respond(to: "/favorites", with: .json("[\(harbourJSON)]", status: status))
        let result = await fetch(from: server)
        #expect(result.value == [harbour], Bugs.favoritesLost.comment)
        expectRequests(
            server.receivedRequests, are: ["GET /favorites"], from: "fetchFavorites()",
            section: "Check the status before you decode", otherwise: Bugs.favoritesLost)
    }

    @Test(
        "A non-2xx answer throws PhotoAPIError.unexpectedStatus, whatever its body",
        .exposesBug(Bugs.errorStatusDecoded),
        arguments: [
            (300, "[]"),  // an answer URLSession did not follow is not a success either
            (404, "[]"),  // an empty list that is not a list of favorites
            (500, "[]"),
            (503, #"{"error":"down for maintenance"}"#),  // an error document
        ])
    func errorStatusThrows(status: Int, body: String) async {
        let server = SimulatedHTTPServer()
        server.respond(to: "/favorites", with: .json(body, status: status))
        switch await fetch(from: server) {
        case .success(let favorites):
            Bugs.errorStatusDecoded.record(
                "The server answered \(status) with \(body); fetchFavorites() returned \(favorites) as the user's favorites."
            )
        case .failure(let error):
            #expect(
                error as? PhotoAPIError == .unexpectedStatus(status),
                Bugs.errorStatusDecoded.comment("The server answered \(status); fetchFavorites() threw \(error)."))
        }
        expectRequests(
            server.receivedRequests, are: ["GET /favorites"], from: "fetchFavorites()",
            section: "Check the status before you decode", otherwise: Bugs.favoritesLost)
    }
}
