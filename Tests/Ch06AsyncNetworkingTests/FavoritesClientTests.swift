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

private let alice = Credential(user: "alice", password: "correct horse")

/// A server where photo 7 is public and favoriting it needs alice's credential.
private func favoritesServer() -> SimulatedHTTPServer {
    let server = SimulatedHTTPServer()
    server.respond(to: "/photos/7", with: .json(harbourJSON))
    server.respond(to: "/photos/7/favorite", with: .status(204), requiringSignIn: alice)
    return server
}

@Suite("Chapter 06: only the favorite request asks the user to sign in")
struct FavoritesClientTests {
    @Test(
        "Browsing never shows the sign-in sheet; favoriting shows it once",
        .exposesBug(Bugs.promptForEveryChallenge))
    func promptOnlyForTheFavorite() async throws {
        let server = favoritesServer()
        let prompt = SignInPrompt(user: .signIn(alice))
        let client = FavoritesClient(server: server, signIn: prompt)

        let photo = try await client.photo(id: "7")
        #expect(photo == harbour, Bugs.clientWrong.comment)
        #expect(
            prompt.challengesShown.isEmpty,
            Bugs.promptForEveryChallenge.comment(
                "Just looking at a photo showed the sheet for: \(prompt.challengesShown)"))

        await #expect(throws: Never.self, Bugs.clientWrong.comment) { try await client.favorite(photoID: "7") }
        let favoriteSignIn = AuthenticationChallenge(method: .signIn, path: "/photos/7/favorite")
        #expect(
            prompt.challengesShown.last == favoriteSignIn, Bugs.clientWrong.comment)
        #expect(
            prompt.challengesShown == [favoriteSignIn],
            Bugs.promptForEveryChallenge.comment("The sheet was shown for: \(prompt.challengesShown)"))
        expectRequests(
            server.receivedRequests, are: ["GET /photos/7", "POST /photos/7/favorite"], from: "FavoritesClient",
            section: "A delegate for one request", otherwise: Bugs.clientWrong)
    }

    @Test(
        "Tapping Cancel on the sign-in sheet cancels the challenge and the favorite request",
        .exposesBug(Bugs.cancelledSignInProceeds))
    func cancelledSignInCancelsTheChallenge() async {
        let server = favoritesServer()
        let client = FavoritesClient(server: server, signIn: SignInPrompt(user: .cancel))
        do {
            try await client.favorite(photoID: "7")
            Bugs.cancelledSignInProceeds.record("favorite(photoID:) succeeded without the user.")
        } catch {
            #expect(isCancellation(error), Bugs.cancelledSignInProceeds.comment("favorite(photoID:) threw \(error)."))
        }
        #expect(
            server.cancelledChallenges == [AuthenticationChallenge(method: .signIn, path: "/photos/7/favorite")],
            Bugs.cancelledSignInProceeds.comment("Challenges cancelled: \(server.cancelledChallenges)"))
        expectRequests(
            server.receivedRequests, are: ["POST /photos/7/favorite"], from: "favorite(photoID:)",
            section: "When the user cancels", otherwise: Bugs.clientWrong)
    }

    @Test("A 300 answer is not a photo: photo(id:) throws unexpectedStatus")
    func multipleChoicesIsNotAPhoto() async {
        let server = SimulatedHTTPServer()
        server.respond(to: "/photos/7", with: .json(harbourJSON, status: 300))
        let client = FavoritesClient(server: server, signIn: SignInPrompt(user: .signIn(alice)))
        do {
            let photo = try await client.photo(id: "7")
            Bugs.notSuccessAccepted.record("The server answered 300; photo(id:) returned \(photo).")
        } catch {
            #expect(
                error as? PhotoAPIError == .unexpectedStatus(300),
                Bugs.notSuccessAccepted.comment("The server answered 300; photo(id:) threw \(error)."))
        }
        expectRequests(
            server.receivedRequests, are: ["GET /photos/7"], from: "photo(id:)",
            section: "Check the status before you decode", otherwise: Bugs.clientWrong)
    }
}
