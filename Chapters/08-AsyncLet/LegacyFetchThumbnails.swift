import SimulatedWorld

/// How this was written before async/await, kept for reference: fetch the first thumbnail,
/// and from its completion handler fetch the rest. A loop is impossible here, so the
/// function calls itself, and every path must remember to call `completion`.
///
/// You don't need to change this file. `fetchThumbnails(for:from:)` in
/// FetchThumbnails.swift is the one to rewrite.
public func fetchThumbnails(
    for ids: [String], from service: ThumbnailService,
    completion: @escaping @Sendable (Result<[String: Thumbnail], any Error>) -> Void
) {
    guard let id = ids.first else {
        completion(.success([:]))
        return
    }
    service.fetchImage(id: id) { result in
        switch result {
        case .failure(let error):
            completion(.failure(error))
        case .success(let thumbnail):
            fetchThumbnails(for: Array(ids.dropFirst()), from: service) { rest in
                completion(rest.map { $0.merging([id: thumbnail]) { later, _ in later } })
            }
        }
    }
}
