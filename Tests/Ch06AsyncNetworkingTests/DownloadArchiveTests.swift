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

/// One test's own folder: the session's temporary files and the destination live there.
private struct DownloadScene: ~Copyable {
    let folder: URL
    let server = SimulatedHTTPServer()
    let session: SimulatedURLSession
    var destination: URL { folder.appendingPathComponent("archive.zip") }

    init(archive: ScriptedResponse) throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("workbook-ch06-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        session = SimulatedURLSession(server: server, temporaryDirectory: folder)
        server.respond(to: "/archive.zip", with: archive)
    }

    func download() async -> Result<Void, any Error> {
        do {
            return .success(try await downloadArchive(from: server.baseURL, to: destination, using: session))
        } catch {
            return .failure(error)
        }
    }

    func contents(of file: URL) -> String? {
        (try? Data(contentsOf: file)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Checks that the session wrote a temporary file and that it is gone, and that the
    /// archive was asked for once.
    func expectNoTemporaryFileLeft(sourceLocation: SourceLocation = #_sourceLocation) {
        expectRequests(
            server.receivedRequests, are: ["GET /archive.zip"], from: "downloadArchive()",
            section: "The temporary file is yours", otherwise: Bugs.archiveWrong, sourceLocation: sourceLocation)
        #expect(session.temporaryFilesCreated.count == 1, Bugs.archiveWrong.comment, sourceLocation: sourceLocation)
        let left = session.temporaryFilesRemaining.map(\.lastPathComponent)
        #expect(left.isEmpty, Bugs.temporaryFileLeft.comment("Still on disk: \(left)"), sourceLocation: sourceLocation)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}

@Suite("Chapter 06: downloadArchive() owns its temporary file")
struct DownloadArchiveTests {
    @Test("A first download lands at the destination and leaves no temporary file")
    func firstDownload() async throws {
        let scene = try DownloadScene(archive: .status(200, body: Data("archive v2".utf8)))
        let result = await scene.download()
        #expect(throws: Never.self, Bugs.archiveWrong.comment) { try result.get() }
        #expect(scene.contents(of: scene.destination) == "archive v2", Bugs.archiveWrong.comment)
        scene.expectNoTemporaryFileLeft()
    }

    @Test(
        "A non-2xx status throws unexpectedStatus and leaves no temporary file",
        .exposesBug(Bugs.temporaryFileLeft), arguments: [300, 503])
    func errorStatusCleansUp(status: Int) async throws {
        let scene = try DownloadScene(archive: .status(status, body: Data("not the archive".utf8)))
        let result = await scene.download()
        #expect(throws: PhotoAPIError.unexpectedStatus(status), Bugs.archiveWrong.comment) { try result.get() }
        #expect(
            scene.contents(of: scene.destination) == nil,
            Bugs.archiveWrong.comment("An error page was saved as the archive."))
        scene.expectNoTemporaryFileLeft()
    }

    @Test(
        "An archive already at the destination is replaced, and no temporary file is left",
        .exposesBug(Bugs.destinationNotReplaced, Bugs.temporaryFileLeft))
    func existingArchiveIsReplaced() async throws {
        let scene = try DownloadScene(archive: .status(200, body: Data("archive v2".utf8)))
        try Data("archive v1".utf8).write(to: scene.destination)
        let result = await scene.download()
        #expect(throws: Never.self, Bugs.destinationNotReplaced.comment) { try result.get() }
        #expect(
            scene.contents(of: scene.destination) == "archive v2",
            Bugs.destinationNotReplaced.comment(
                "The destination holds: \(scene.contents(of: scene.destination) ?? "nothing")"))
        scene.expectNoTemporaryFileLeft()
    }
}
