// The simulated network.
//
// An HTTP transport shaped like URLSession: the server a test scripts (`SimulatedHTTPServer`,
// `ScriptedResponse`, `ScriptedLineStream`), its client (`SimulatedURLSession`,
// `SimulatedDataTask`, `LineFeedTask`, `AuthenticationChallenge`) and `StubURLProtocol` for a real
// `URLSession`. The servers and uploads the chapters call: `ImageServer`, `PhotoService`,
// `SearchServer`, `ChunkedUploader`, `RideUpload`.
//
// May use Controls, and the models of Services (`Photo`).
