import FeedsCDN
import FeedsCore
import FeedsMedia
import Foundation

/// Resized images on request (`?w=&h=&resize=&crop=` on any image URL we serve): made with
/// libvips off the async pool, a few at a time, and kept in a disk cache. An S3 object is fetched
/// into the same cache once, then resized from there.
struct ImageVariants: Sendable {
    let cache: VariantCache
    /// Resizes at once: each holds a decoded region of its source, so this bounds the memory.
    let resizes: AsyncSemaphore

    /// The longest side of `thumb_url`'s variant.
    static let thumbnailSide = 512

    init(directory: URL, budget: Int64, concurrency: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)) throws {
        cache = try VariantCache(directory: directory, budget: budget)
        resizes = AsyncSemaphore(permits: concurrency)
    }

    /// The variant of `key` (a `mimeType` object) that `request` asks for. `source` gives the
    /// path of the original: the object itself on local disk, or a fetched copy.
    func variant(
        of key: ObjectKey, mimeType: String, request: ResizeRequest, source: @escaping @Sendable () async throws -> String
    ) async throws -> (VariantCache.Entry, VariantCache.Outcome) {
        guard ImageResizer.outputType(for: mimeType) != nil else {
            throw FeedsError.input("\(mimeType) files cannot be resized; fetch the URL without w and h", field: "w")
        }
        let name = "\(key.rawValue)#\(request.variantName)"
        let make: @Sendable (String) async throws -> String = { [resizes] destination in
            let original = try await source()
            try await resizes.acquire()
            defer { resizes.release() }
            return try await BlockingIO.run {
                try ImageResizer.resize(source: original, mimeType: mimeType, request: request, to: destination).mimeType
            }
        }
        let found = try await cache.file(name, make: make)
        // A cached file removed behind the cache's back is made again.
        guard found.1 == .cached, !FileManager.default.fileExists(atPath: found.0.path) else { return found }
        await cache.forget(name)
        return try await cache.file(name, make: make)
    }

    /// A local copy of an S3 object, fetched once and kept in the cache like a variant.
    func original(of key: ObjectKey, from store: S3CDN) async throws -> String {
        try await cache.file("\(key.rawValue)#original") { path in
            try await store.download(key, to: path)
            return "application/octet-stream"
        }.0.path
    }
}
