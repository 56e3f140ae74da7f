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

@Suite("Chapter 06: uploadPhoto() sends its JPEG as a POST")
struct UploadPhotoTests {
    @Test("The server receives POST /photos with the JPEG as its body", .exposesBug(Bugs.uploadSentAsGET))
    func uploadIsAPost() async {
        let server = SimulatedHTTPServer()
        server.respond(to: "/photos", with: .json(harbourJSON, status: 201))
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10])
        let thrown: (any Error)?
        do {
            let photo = try await uploadPhoto(jpeg, to: server.baseURL, using: SimulatedURLSession(server: server))
            #expect(photo == harbour, Bugs.uploadWrong.comment("uploadPhoto() returned \(photo)."))
            thrown = nil
        } catch {
            thrown = error
        }
        let received = server.receivedRequests
        // URLSession sends no GET with a body: it fails the request before the server sees it.
        if (thrown as? URLError)?.code == .dataLengthExceedsMaximum, received.isEmpty {
            Bugs.uploadSentAsGET.record(
                "uploadPhoto() threw URLError(.dataLengthExceedsMaximum), code -1103: URLSession refused to send a GET with a body, and the server received nothing."
            )
            return
        }
        if let error = thrown { Bugs.uploadWrong.record("uploadPhoto() threw \(error).") }
        if received == ["GET /photos"] {
            Bugs.uploadSentAsGET.record("The server received: \(received)")
        } else {
            expectRequests(
                received, are: ["POST /photos"], from: "uploadPhoto()",
                section: "An upload has no method of its own", otherwise: Bugs.uploadWrong)
        }
        #expect(
            server.receivedBodies == [jpeg],
            Bugs.uploadWrong.comment("The bodies the server received: \(server.receivedBodies)"))
    }
}
