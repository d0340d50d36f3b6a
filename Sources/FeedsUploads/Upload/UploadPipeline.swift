import Crypto
import FeedsCDN
import FeedsCore
import FeedsMedia
import Foundation
import Logging

/// Everything between a checked file and a stored object: the reserved record first, then the
/// bytes through the uploader, and on any failure neither bytes nor a record that says otherwise.
package struct UploadPipeline: Sendable {
    package let objects: any ObjectStore
    package let uploader: AttachmentUploader
    package let cdn: any CDNClient
    /// Reads the object key out of a URL of ours.
    package let signer: URLSigner
    /// This process's folder for temp files; held while the pipeline lives.
    package let temp: ProcessTempDirectory
    package var tempDirectory: URL { temp.url }
    /// The app's upload rules and URL lifetime, as this node last heard of them.
    package let settings: AppSettingsCache
    /// Resized images, for thumbnails and `upload_sizes`, and videos' posters.
    package let variants: ImageVariants
    /// ffprobe and ffmpeg, when installed, for audio and video; and how many run at once.
    package let media: AVTools?
    let probes: AsyncSemaphore
    /// Signs the URLs of responses.
    package let urls: AttachmentURLs
    /// Turns attachments a client sends into stored ones.
    package let linker: AttachmentLinker
    /// Told of every object deleted, to drop what was made from it on this node.
    package let purge: @Sendable (ObjectKey) async -> Void
    /// How long one call to the store may take (the S3 timeout); a request's store work,
    /// waits for a slot and retries included, gets this plus a second (and a second a megabyte).
    package let storeTimeout: Duration

    package init(
        objects: any ObjectStore, uploader: AttachmentUploader, cdn: any CDNClient, signer: URLSigner, temp: ProcessTempDirectory,
        settings: AppSettingsCache, variants: ImageVariants, storeTimeout: Duration = .seconds(10),
        media: AVTools? = AVTools.find(),
        purge: @escaping @Sendable (ObjectKey) async -> Void = { _ in }
    ) {
        self.objects = objects
        self.uploader = uploader
        self.cdn = cdn
        self.signer = signer
        self.temp = temp
        self.settings = settings
        self.variants = variants
        self.storeTimeout = storeTimeout
        self.media = media
        self.probes = AsyncSemaphore(permits: max(2, ProcessInfo.processInfo.activeProcessorCount))
        self.urls = AttachmentURLs(cdn: cdn, settings: settings)
        self.linker = AttachmentLinker(objects: objects, signer: signer)
        self.purge = { key in
            await variants.purge(key)
            await purge(key)
        }
    }

    /// The largest file a request may stream to disk under `settings`: the limit of the rules
    /// for `imageOnly`, or when that is not known yet (an attachment's type comes with the
    /// `activity` part, which may come last) the larger of the two; the exact check follows the sniffing.
    package func streamLimit(_ settings: AppSettings, imageOnly: Bool? = nil) -> SizeLimit {
        let kinds = imageOnly.map { [$0] } ?? [false, true]
        return kinds.map { image in
            let (rules, name) = settings.rules(forImage: image)
            return SizeLimit(rules, named: name, storageLimit: cdn.maxAttachmentSize)
        }.max { $0.bytes < $1.bytes }!
    }

    /// One file to store, and the attachment payload to keep for it.
    package struct Job {
        package var checked: FileChecker.Checked
        package var kind: ObjectRecord.Kind
        package var payload: JSONObject = [:]

        package init(checked: FileChecker.Checked, kind: ObjectRecord.Kind, payload: JSONObject = [:]) {
            self.checked = checked
            self.kind = kind
            self.payload = payload
        }
    }

    /// The Describe step for audio and video, which runs ffprobe (`AVTools`): duration, codec,
    /// a video's size as shown, and a voice recording's waveform. A file ffprobe cannot read in
    /// time is stored all the same, as a file with no description.
    package func describe(_ checked: FileChecker.Checked, attachmentType: String?, logger: Logger) async -> FileChecker.Checked {
        guard let media, AVTypes.demuxer(for: checked.file.mimeType) != nil else { return checked }
        var described = checked
        do {
            try await probes.acquire()
        } catch {
            return checked
        }
        defer { probes.release() }
        let path = checked.file.url.path
        guard let info = await media.probe(path, mimeType: checked.file.mimeType) else {
            logger.warning("could not describe an upload", metadata: ["type": "\(checked.file.mimeType)"])
            return checked
        }
        described.media = info
        (described.width, described.height) = (info.width, info.height)
        if attachmentType == "voiceRecording", let duration = info.duration {
            described.waveform = await media.waveform(of: path, mimeType: checked.file.mimeType, duration: duration)
        }
        return described
    }

    /// Makes the variants of a just-stored image ahead of their first request. `temp` is the
    /// upload's temp file, still there when the store copied it (S3) and renamed when it did not.
    package func precompute(
        _ requests: [ResizeRequest], of key: ObjectKey, mimeType: String, media: MediaInfo? = nil, temp: URL
    ) async throws {
        let source = cdn.localPath(for: key) ?? temp.path
        for request in requests {
            _ = try await variants.variant(of: key, mimeType: mimeType, request: request, media: media) { source }
        }
    }

    /// Reserves and uploads `jobs`; returns their records and attachments in order.
    package func store(_ jobs: [Job], owner: String?, logger: Logger) async throws -> [(
        record: ObjectRecord, attachment: StoredAttachment
    )] {
        let records = jobs.map { job in
            ObjectRecord(
                key: ObjectKey(fileName: job.checked.file.fileName), kind: job.kind, ownerID: owner,
                fileName: job.checked.file.fileName, mimeType: job.checked.file.mimeType, size: job.checked.file.size,
                sha256: job.checked.file.sha256, width: job.checked.width, height: job.checked.height,
                media: job.checked.measures
            )
        }
        try await objects.reserve(records, logger: logger)
        let items = zip(jobs, records).enumerated().map { index, pair in
            AttachmentUploader.Item(index: index, file: pair.0.checked.file, key: pair.1.key, payload: pair.0.payload)
        }
        let uploaded: [UploadedAttachment]
        do {
            let bytes = jobs.reduce(Int64(0)) { $0 + $1.checked.file.size }
            uploaded = try await withStoreBudget(bytes: bytes) { [uploader] in try await uploader.upload(items, logger: logger) }
        } catch {
            // A failed upload may still land: a PUT whose reply was lost, or one the store
            // finishes after we gave up on it, can arrive after our delete. So the records stay
            // (claimed, deleting), a first delete is tried after the reply, and the sweeper
            // deletes them again once the retry delay has passed, when nothing can still be on its way.
            await discard(records.map(\.key), confirmed: false, logger: logger)
            throw Self.refusal(error)
        }
        // A video's poster is made now, so that its first viewer does not wait for ffmpeg.
        for (job, record) in zip(jobs, records) where job.checked.media?.hasVideo == true {
            do {
                try await precompute(
                    [AttachmentURLs.thumbnail], of: record.key, mimeType: record.mimeType, media: job.checked.media,
                    temp: job.checked.file.url)
            } catch {
                logger.warning("could not make a video's poster", metadata: ["key": "\(record.key)", "error": "\(error)"])
            }
        }
        return zip(records, uploaded).map { ($0, StoredAttachment(payload: $1.payload, objectKey: $0.key)) }
    }

    /// What storing `bytes` may take: the store's timeout plus a second, and a second a megabyte.
    package func storeBudget(bytes: Int64) -> Duration {
        storeTimeout + .seconds(1 + bytes / 1_000_000)
    }

    /// Runs store work within `storeBudget`, so a store that stops answering costs a request 504,
    /// not a wait without end; the work is cancelled then but not waited for.
    private func withStoreBudget<T: Sendable>(
        bytes: Int64 = 0, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let budget = storeBudget(bytes: bytes)
        return try await withDeadline(
            budget,
            orThrow: {
                FeedsError(.gatewayTimeout, "the file store did not answer in \(budget.components.seconds) s; try again")
            }, work)
    }

    /// Removes stored objects whose activity was not written. They are claimed (deleting) at
    /// once, so nothing links them; the deletes run after the caller has answered, since a store
    /// that hangs must not hold the reply. A record goes once the store confirmed its delete; one
    /// whose delete failed stays claimed for the sweeper. `confirmed: false` says the upload itself
    /// may not have ended: the bytes may land after the delete, so every record stays for the
    /// sweeper's second delete.
    package func discard(_ keys: [ObjectKey], confirmed: Bool = true, logger: Logger) async {
        _ = try? await objects.claimForDeletion(keys, logger: logger)
        Task { [self] in await deleteFromStore(keys, forget: confirmed, logger: logger) }
    }

    /// Deletes claimed objects from the store; `forget` drops the records of those it confirmed.
    private func deleteFromStore(_ keys: [ObjectKey], forget: Bool, logger: Logger) async {
        for key in keys {
            do {
                try await cdn.delete(key: key)
                await purge(key)
                if forget { try await objects.forget([key], logger: logger) }
            } catch {
                logger.error(
                    "could not remove an orphaned upload; gc will delete it later",
                    metadata: ["key": "\(key)", "error": "\(error)"])
            }
        }
    }

    /// Deletes one object a client asked to delete: claimed first, so that nothing links it
    /// meanwhile; its record says deleted only once the store confirmed it (else gc retries).
    package func delete(_ key: ObjectKey, logger: Logger) async throws {
        guard !(try await objects.claimForDeletion([key], logger: logger)).isEmpty else { return }
        do {
            try await withStoreBudget { [cdn] in try await cdn.delete(key: key) }
        } catch {
            throw Self.refusal(error)
        }
        await purge(key)
        try await objects.markDeleted([key], logger: logger)
    }

    /// Stores a file the server wrote (a person's data export) as an object of `owner`, so that
    /// their erasure deletes it too; answers its signed URL (for the app's `cdn_expiration_seconds`).
    package func storeExport(_ file: URL, fileName: String, owner: String?, logger: Logger) async throws -> String {
        let (size, sha256) = try Self.digest(file)
        let checked = FileChecker.Checked(
            file: LocalFile(url: file, fileName: fileName, size: size, sha256: sha256, mimeType: "application/json"))
        let stored = try await store([Job(checked: checked, kind: .file)], owner: owner, logger: logger)
        return urls.url(for: stored[0].record.key)
    }

    /// A file's size and hex SHA-256, read a megabyte at a time.
    private static func digest(_ file: URL) throws -> (Int64, String) {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var (hasher, size) = (SHA256(), Int64(0))
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
            size += Int64(chunk.count)
        }
        return (size, hasher.finalize().map { String(format: "%02x", $0) }.joined())
    }

    /// Deletes objects for good, whoever holds them (a person's erasure): claimed, their bytes
    /// deleted from the store and their cached variants purged, then recorded deleted. Throws if
    /// the store refused one; those claimed stay `deleting`, for the next try or gc.
    package func erase(_ keys: [ObjectKey], logger: Logger) async throws {
        let claimed = try await objects.claimForDeletion(keys, logger: logger).map(\.key)
        for key in claimed {
            do {
                try await withStoreBudget { [cdn] in try await cdn.delete(key: key) }
            } catch {
                throw Self.refusal(error)
            }
            await purge(key)
        }
        try await objects.markDeleted(claimed, logger: logger)
    }

    /// A CDN failure is the gateway's (502, or 504 when it did not answer in time); anything
    /// else keeps its meaning.
    package static func refusal(_ error: any Error) -> any Error {
        guard let cdnError = error as? CDNError else { return error }
        return FeedsError(cdnError.timedOut ? .gatewayTimeout : .badGateway, "the file store failed: \(cdnError.message)")
    }
}
