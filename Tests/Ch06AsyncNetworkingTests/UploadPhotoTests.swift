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
    /// 201 is the service's answer to an upload; 300 is an answer URLSession did not follow.
    @Test(
        "The server receives POST /photos with the JPEG as its body; only a 2xx answer is a photo",
        .exposesBug(Bugs.uploadSentAsGET), arguments: [201, 300])
    func uploadIsAPost(status: Int) async {
        let server = SimulatedHTTPServer()
        server.respond(to: "/photos", with: .json(harbourJSON, status: status))
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10])
        let thrown: (any Error)?
        do {
            let photo = try await uploadPhoto(jpeg, to: server.baseURL, using: SimulatedURLSession(server: server))
            if status == 201 {
                #expect(photo == harbour, Bugs.uploadWrong.comment("uploadPhoto() returned \(photo)."))
            } else {
                Bugs.notSuccessAccepted.record("The server answered \(status); uploadPhoto() returned \(photo).")
            }
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
        if let error = thrown, status == 201 {
            Bugs.uploadWrong.record("uploadPhoto() threw \(error).")
        } else if let error = thrown, error as? PhotoAPIError != .unexpectedStatus(status) {
            Bugs.notSuccessAccepted.record("The server answered \(status); uploadPhoto() threw \(error).")
        }
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
