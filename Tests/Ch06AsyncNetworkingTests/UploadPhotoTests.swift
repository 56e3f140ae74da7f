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
        do {
            let photo = try await uploadPhoto(jpeg, to: server.baseURL, using: SimulatedURLSession(server: server))
            #expect(photo == harbour, Bugs.uploadWrong.comment("uploadPhoto() returned \(photo)."))
        } catch {
            Bugs.uploadWrong.record("uploadPhoto() threw \(error).")
        }
        let received = server.receivedRequests
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
