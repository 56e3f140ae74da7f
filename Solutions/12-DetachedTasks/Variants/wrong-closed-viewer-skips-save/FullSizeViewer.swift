import SimulatedWorld

extension Gallery {
    public func fullSizeLoaded(_ photo: Thumbnail) async {
        // The user has closed the viewer already: nobody is looking, skip the save.
        guard !Task.isCancelled else { return }
        Task.detached(priority: .background) { [cache] in
            try? await cache.save(photo)
        }
    }
}
