extension ThumbnailService {
    /// The thumbnail service as pre-async code calls it: the completion handler receives the
    /// image or the error later, from a task of the service's own.
    ///
    /// That task does not belong to the caller, so cancelling the caller's task does not reach
    /// the request: a held request stays held until the test releases it. Nor does it return a
    /// handle to cancel it, so it never sees a cancel. Errors reach the handler exactly as the
    /// async face throws them (a cancelled `URLSessionDataTask` would report
    /// `.failure(URLError(.cancelled))`, the async face's cancel error).
    public func fetchImage(
        id: String, completion: @escaping @Sendable (Result<Thumbnail, any Error>) -> Void
    ) {
        Task {
            do {
                completion(.success(try await fetchImage(id: id)))
            } catch {
                completion(.failure(error))
            }
        }
    }
}
