import SimulatedWorld

extension Gallery {
    /// The viewer has downloaded the full-size `photo`: keep a copy in the disk cache, so that
    /// opening it again is instant. Runs in the viewer's task, which is cancelled when the
    /// user closes the viewer.
    ///
    /// Solution: the save is detached on purpose. The copy is still useful after the user
    /// closes the viewer, so it must not belong to the viewer's task: a detached task is no
    /// child of it, and the viewer's cancel doesn't reach it. The viewer doesn't wait for the
    /// disk either.
    public func fullSizeLoaded(_ photo: Thumbnail) async {
        Task.detached(priority: .background) { [cache] in
            try? await cache.save(photo)
        }
    }
}
