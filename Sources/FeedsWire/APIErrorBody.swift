import FeedsAPI
import FeedsCore
import Foundation

/// Renders a `FeedsError` as Stream's `APIError` JSON, for replies and socket messages alike.
package enum APIErrorBody {
    /// The JSON bytes of the body.
    package static func json(for error: FeedsError, duration: String) -> [UInt8] {
        let body = Components.Schemas.APIError(
            statusCode: Int32(error.kind.status),
            code: Int32(error.kind.code),
            details: [],
            duration: duration,
            exceptionFields: error.field.map { .init(additionalProperties: [$0: error.message]) },
            message: error.message,
            moreInfo: "",
            unrecoverable: error.kind.status == 500 ? false : nil
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Array((try? encoder.encode(body)) ?? Data("{}".utf8))
    }
}
