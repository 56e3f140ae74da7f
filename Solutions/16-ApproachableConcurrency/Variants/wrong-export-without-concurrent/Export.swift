import SimulatedWorld

/// A photo, as the archive writer sees it.
struct PhotoDocument: ExportableDocument {
    let photo: RawPhoto

    var exportTitle: String { "Photo \(photo.id)" }

    func exportBody() -> String { "\(photo.id): \(photo.tileCount) tiles" }
}

/// The album's cover page in the archive.
struct AlbumCover: ExportableDocument {
    let name: String
    let photoCount: Int

    var exportTitle: String { name }

    func exportBody() -> String { "\(photoCount) photos" }
}

/// Writes `documents` into an archive. Compressing is CPU-heavy, so this runs concurrently,
/// off the main actor.
nonisolated func writeArchive(_ documents: [any ExportableDocument], with writer: ArchiveWriter) async -> Archive {
    writer.write(documents)
}

extension EditorModel {
    /// Exports an album: a cover page, then one document per photo, in one archive.
    public func exportAlbum(named name: String, photos: [RawPhoto]) async -> Archive {
        var documents: [any ExportableDocument] = [AlbumCover(name: name, photoCount: photos.count)]
        for photo in photos {
            documents.append(PhotoDocument(photo: photo))
        }
        return await writeArchive(documents, with: writer)
    }
}
