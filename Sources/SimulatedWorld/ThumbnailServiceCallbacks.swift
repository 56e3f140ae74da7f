extension ThumbnailService {
    /// The thumbnail service as pre-async code calls it: the completion handler receives the
    /// image or the error later, from a task of the service's own.
    ///
    /// That task does not belong to the caller, so cancelling the caller's task does not reach
    /// the request: a held request stays held until the test releases it.
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
