import Dispatch
import Synchronization

/// The metadata that travels with an image.
public struct ImageMetadata: Sendable, Hashable, Codable {
    public let title: String
    public let width: Int
    public let height: Int

    public init(title: String, width: Int, height: Int) {
        self.title = title
        self.width = width
        self.height = height
    }
}

/// An image and its metadata, as the image server delivers them together.
public struct DetailedImage: Sendable, Hashable, Codable {
    public let number: Int
    public let pixels: [UInt8]
    public let metadata: ImageMetadata

    public init(number: Int, pixels: [UInt8], metadata: ImageMetadata) {
        self.number = number
        self.pixels = pixels
        self.metadata = metadata
    }

    /// A small, recognisable image for tests.
    public static func sample(_ number: Int) -> DetailedImage {
        DetailedImage(
            number: number, pixels: [UInt8(truncatingIfNeeded: number), 0xFF, 0x7F],
            metadata: ImageMetadata(title: "Photo #\(number)", width: 3, height: 1))
    }
}

/// Errors the image server reports.
public enum ImageServerError: Error, Sendable, Hashable, Codable {
    case notFound(imageNumber: Int)
    case offline
}

/// A simulated image-and-metadata server with a classic completion-handler API.
///
/// Tests script what each download does with ``ImageServer/Outcome``. The completion
/// handler always runs on a background queue, as network callbacks do, and is called
/// exactly once per request: the server itself never misbehaves, so any double call
/// or missing call in a chapter is the wrapper's doing.
public final class ImageServer: Sendable {
    /// What a download delivers to its completion handler.
    public enum Outcome: Sendable {
        /// `(image, nil)`.
        case image(DetailedImage)
        /// `(nil, error)`.
        case error(ImageServerError)
        /// `(nil, nil)`: the API's types allow it, so real servers sometimes do it.
        case neither
    }

    private let outcome: @Sendable (Int) -> Outcome
    private let callbackQueue = DispatchQueue(label: "ImageServer.callbacks")
    /// How many downloads have been requested.
    public let requests = ObservedCount()

    /// A server whose every download ends with `outcome`.
    public convenience init(always outcome: Outcome) {
        self.init { _ in outcome }
    }

    /// A server that decides each download's outcome from the image number.
    public init(outcome: @escaping @Sendable (_ imageNumber: Int) -> Outcome) {
        self.outcome = outcome
    }

    /// Downloads an image and its metadata, then calls `completionHandler` on a background queue
    /// with `(image, nil)`, `(nil, error)` or, if scripted, `(nil, nil)`.
    public func downloadImageAndMetadata(
        imageNumber: Int,
        completionHandler: @escaping @Sendable (DetailedImage?, (any Error)?) -> Void
    ) {
        requests.increment()
        let outcome = outcome(imageNumber)
        ScheduledCallbacks.schedule(on: callbackQueue) {
            switch outcome {
            case .image(let image): completionHandler(image, nil)
            case .error(let error): completionHandler(nil, error)
            case .neither: completionHandler(nil, nil)
            }
        }
    }
}
