import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Lets a real `URLSession` talk to a ``SimulatedHTTPServer``: a `URLProtocol` that answers
/// each request from the scripted routes of the server that owns the request's host.
///
/// `URLSession.data(for:)` works through such a stub on Linux and macOS alike, so an
/// exercise can use the real API. Get a session from ``SimulatedHTTPServer/makeURLSession()``.
final class StubURLProtocol: URLProtocol {
    private final class WeakServer: Sendable {
        weak let server: SimulatedHTTPServer?
        init(_ server: SimulatedHTTPServer) { self.server = server }
    }

    /// The live servers, by host.
    private static let servers = Mutex<[String: WeakServer]>([:])

    static func register(_ server: SimulatedHTTPServer) {
        guard let host = server.baseURL.host else { return }
        servers.withLock { servers in
            servers = servers.filter { $0.value.server != nil }
            servers[host] = WeakServer(server)
        }
    }

    private static func server(for request: URLRequest) -> SimulatedHTTPServer? {
        guard let host = request.url?.host else { return nil }
        return servers.withLock { $0[host]?.server }
    }

    override class func canInit(with request: URLRequest) -> Bool { server(for: request) != nil }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let server = Self.server(for: request) else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotFindHost))
            return
        }
        do {
            let (response, body) = try server.immediateAnswer(to: request)
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(self, didLoad: body)
            client?.urlProtocolDidFinishLoading(self)
        } catch {
            client?.urlProtocol(self, didFailWithError: error)
        }
    }

    override func stopLoading() {}
}
