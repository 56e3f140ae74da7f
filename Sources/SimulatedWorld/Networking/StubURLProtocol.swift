import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Lets a real `URLSession` talk to a ``SimulatedHTTPServer``: a `URLProtocol` that answers
/// each request from the scripted routes of the server that owns the request's host.
///
/// `URLSession.data(for:)` works through such a stub on Linux and macOS alike, so an
/// exercise can use the real API. Get a session from ``SimulatedHTTPServer/makeURLSession()``.
final class StubURLProtocol: URLProtocol {
    /// The live servers, by host.
    private static let registry = ServerRegistry()

    static func register(_ server: SimulatedHTTPServer) {
        registry.add(server)
    }

    override class func canInit(with request: URLRequest) -> Bool { registry.server(for: request) != nil }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let server = Self.registry.server(for: request) else {
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

/// The servers a stub can answer for.
private final class ServerRegistry: Sendable {
    private final class WeakServer: Sendable {
        weak let server: SimulatedHTTPServer?
        init(_ server: SimulatedHTTPServer) { self.server = server }
    }

    private let servers = Locked<[String: WeakServer]>([:])

    func add(_ server: SimulatedHTTPServer) {
        guard let host = server.baseURL.host else { return }
        servers.withLock { servers in
            servers = servers.filter { $0.value.server != nil }
            servers[host] = WeakServer(server)
        }
    }

    func server(for request: URLRequest) -> SimulatedHTTPServer? {
        guard let host = request.url?.host else { return nil }
        return servers.withLock { $0[host]?.server }
    }
}
