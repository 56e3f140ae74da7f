import Foundation

/// What one route of a ``SimulatedHTTPServer`` answers.
public enum ScriptedResponse: Sendable {
    /// An HTTP response with this status code and body.
    case status(Int, body: Data = Data())
    /// The transfer fails before any response arrives, as when the network drops.
    /// The client sees `URLError(code)`.
    case failure(URLError.Code)

    /// A response whose body is `json` in UTF-8, with status 200 unless told otherwise.
    public static func json(_ json: String, status: Int = 200) -> ScriptedResponse {
        .status(status, body: Data(json.utf8))
    }
}
