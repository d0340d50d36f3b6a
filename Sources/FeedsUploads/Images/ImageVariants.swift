import FeedsCDN
import FeedsCore
import FeedsMedia
import Foundation

/// Resized images on request (`?w=&h=&resize=&crop=` on any image or video URL we serve): made
/// with libvips off the async pool, a few at a time, and kept in a disk cache. An S3 object is
/// fetched into the same cache once, then resized from there. A video's variants are of its
/// poster frame (`AVTools.poster`), made once and kept in the cache beside them: so a poster
/// goes when its video does, like every variant, and a video nobody views costs no ffmpeg run
/// but the one its upload makes. A BMP, which libvips reads only through a blocked loader, is
/// decoded by ffmpeg into a PNG once, kept the same way.
package struct ImageVariants: Sendable {
    package let cache: VariantCache
    /// Resizes and posters at once: each holds a decoded picture, so this bounds the memory.
    let resizes: AsyncSemaphore
    /// ffmpeg, for posters; nil when it is not installed.
    let media: AVTools?

    package init(
        directory: URL, budget: Int64, concurrency: Int = max(2, ProcessInfo.processInfo.activeProcessorCount),
        media: AVTools? = AVTools.find()
    ) throws {
        cache = try VariantCache(directory: directory, budget: budget)
        resizes = AsyncSemaphore(permits: concurrency)
        self.media = media
    }

    /// The variant of `key` (a `mimeType` object) that `request` asks for. `source` gives the
    /// path of the original: the object itself on local disk, or a fetched copy.
    /// `media`: a video's probe, when its upload made one.
    package func variant(
        of key: ObjectKey, mimeType: String, request: ResizeRequest, media: MediaInfo? = nil,
        source: @escaping @Sendable () async throws -> String
    ) async throws -> (VariantCache.Entry, VariantCache.Outcome) {
        let isVideo = AVTypes.isVideo(mimeType)
        guard ImageResizer.outputType(for: mimeType) != nil || isVideo else {
            throw FeedsError.input("\(mimeType) files cannot be resized; fetch the URL without w and h", field: "w")
        }
        let name = "\(key.rawValue)#\(request.variantName)"
        let make: @Sendable (String) async throws -> String = { [self] destination in
            // The file libvips resizes, its type, and the type whose output the variant takes.
            let (original, type, shownAs): (String, String, String) =
                if isVideo {
                    (try await poster(of: key, mimeType: mimeType, media: media, source: source), "image/jpeg", "image/jpeg")
                } else if mimeType == "image/bmp" {
                    (try await decodedBMP(of: key, source: source), "image/png", mimeType)
                } else {
                    (try await source(), mimeType, mimeType)
                }
            try await resizes.acquire()
            defer { resizes.release() }
            return try await BlockingIO.run {
                try ImageResizer.resize(source: original, mimeType: type, decodedFrom: shownAs, request: request, to: destination)
                    .mimeType
            }
        }
        let found = try await cache.file(name, make: make)
        // A cached file removed behind the cache's back is made again.
        guard found.1 == .cached, !FileManager.default.fileExists(atPath: found.0.path) else { return found }
        await cache.forget(name)
        return try await cache.file(name, make: make)
    }

    /// The path of the poster of the video `key`, made once.
    private func poster(
        of key: ObjectKey, mimeType: String, media: MediaInfo?, source: @escaping @Sendable () async throws -> String
    ) async throws -> String {
        guard let tools = self.media else {
            throw FeedsError(.unavailable, "this server cannot read videos: ffmpeg is not installed")
        }
        return try await cache.file("\(key.rawValue)#poster") { [resizes] destination in
            let original = try await source()
            try await resizes.acquire()
            defer { resizes.release() }
            try await tools.poster(of: original, mimeType: mimeType, known: media, to: destination)
            return "image/jpeg"
        }.0.path
    }

    /// The path of the BMP `key` decoded into a PNG, made once; over the pixel limit (by its
    /// header) it is refused before any decode.
    private func decodedBMP(of key: ObjectKey, source: @escaping @Sendable () async throws -> String) async throws -> String {
        guard let tools = self.media else {
            throw FeedsError(.unavailable, "this server cannot read BMP images: ffmpeg is not installed")
        }
        return try await cache.file("\(key.rawValue)#decoded") { [resizes] destination in
            let original = try await source()
            guard let size = try ImageProbe.dimensions(ofFileAt: original) else {
                throw FeedsError.input("the image cannot be read, so it cannot be resized", field: "w")
            }
            guard size.width * size.height <= ImageResizer.pixelLimit else {
                throw FeedsError.input(
                    "the image is \(size.width)×\(size.height) pixels, over the \(ImageResizer.pixelLimit)-pixel limit for resizing",
                    field: "w")
            }
            try await resizes.acquire()
            defer { resizes.release() }
            try await tools.decodeBMP(original, to: destination)
            return "image/png"
        }.0.path
    }

    /// Drops every variant of `key` (and a fetched copy of it): its object is gone.
    package func purge(_ key: ObjectKey) async {
        await cache.forget(prefix: "\(key.rawValue)#")
    }

    /// A local copy of a remote store's object, fetched once and kept in the cache like a variant.
    package func original(of key: ObjectKey, from store: any CDNClient) async throws -> String {
        try await cache.file("\(key.rawValue)#original") { path in
            try await store.download(key, to: path)
            return "application/octet-stream"
        }.0.path
    }
}
