import Foundation

/// A decoded photo: what `UIImage(data:)` would give you, without UIKit.
public struct Photo: Sendable, Hashable, CustomStringConvertible {
    public let number: Int
    public let pixels: [UInt8]

    public init(number: Int, pixels: [UInt8]) {
        self.number = number
        self.pixels = pixels
    }

    /// Decodes `data` as a photo, or returns nil when the bytes are not a photo,
    /// the way image decoders fail: quietly, with no error to say why.
    public init?(data: Data) {
        let bytes = [UInt8](data)
        guard bytes.count >= Self.magic.count + 1, bytes.starts(with: Self.magic) else { return nil }
        number = Int(bytes[Self.magic.count])
        pixels = Array(bytes.dropFirst(Self.magic.count + 1))
    }

    /// The photo's bytes, as a server sends them.
    public var encoded: Data { Data(Self.magic + [UInt8(truncatingIfNeeded: number)] + pixels) }

    public var description: String { "Photo #\(number)" }

    /// A small, recognisable photo for tests.
    public static func sample(_ number: Int) -> Photo {
        Photo(number: number, pixels: [0x10, 0x20, UInt8(truncatingIfNeeded: number)])
    }

    private static let magic: [UInt8] = Array("PHOTO".utf8)
}
