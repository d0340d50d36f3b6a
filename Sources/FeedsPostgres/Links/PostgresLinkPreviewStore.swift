import FeedsCore
import Foundation
import Logging
import PostgresNIO

/// `LinkPreviewStore` in `link_previews`.
package struct PostgresLinkPreviewStore: LinkPreviewStore {
    let client: PostgresClient

    package init(client: PostgresClient) {
        self.client = client
    }

    package func preview(of url: String, since: Date, logger: Logger) async throws -> LinkPreview? {
        let rows = try await client.query(
            "SELECT preview::text FROM link_previews WHERE url = \(url) AND fetched_at > \(since)", logger: logger)
        for try await text in rows.decode(String.self) {
            return try JSONDecoder().decode(LinkPreview.self, from: Data(text.utf8))
        }
        return nil
    }

    package func keep(_ preview: LinkPreview, logger: Logger) async throws {
        let json = String(decoding: try JSONEncoder().encode(preview), as: UTF8.self)
        try await client.query(
            """
            INSERT INTO link_previews (url, preview) VALUES (\(preview.scrapeURL), \(json)::jsonb)
            ON CONFLICT (url) DO UPDATE SET preview = EXCLUDED.preview, fetched_at = now()
            """, logger: logger)
    }
}
