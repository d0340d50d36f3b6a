/// The one error type of the domain. The HTTP layer maps it to Stream's `APIError` body.
public struct FeedsError: Error, Sendable, Equatable {
    /// What went wrong, in Stream's error-code vocabulary.
    public enum Kind: Sendable, Equatable {
        case input
        case authentication
        case badAPIKey
        case tokenExpired
        case tokenNotYetValid
        case tokenSignature
        case notAllowed
        case notFound
        case conflict
        case payloadTooLarge
        case unsupportedMediaType
        /// The request's `Accept` takes no JSON, and JSON is all the API answers with.
        case notAcceptable
        case methodNotAllowed
        /// An Idempotency-Key reused with a different request.
        case idempotencyMismatch
        /// The storage backend failed or refused.
        case badGateway
        /// The storage backend did not answer in time.
        case gatewayTimeout
        case rateLimited
        case unavailable
        case `internal`
    }

    /// The category, which decides the status and the numeric code.
    public var kind: Kind
    /// A message for the client; never internals.
    public var message: String
    /// The request field at fault, when there is one (becomes `exception_fields`).
    public var field: String?

    /// Creates an error of a kind with a client-facing message.
    public init(_ kind: Kind, _ message: String, field: String? = nil) {
        self.kind = kind
        self.message = message
        self.field = field
    }

    /// Bad input (400, code 4), naming the field when known.
    public static func input(_ message: String, field: String? = nil) -> Self {
        .init(.input, message, field: field)
    }

    /// The caller may not do this (403, code 17).
    public static func notAllowed(_ message: String) -> Self { .init(.notAllowed, message) }

    /// The thing asked for does not exist (404, code 16).
    public static func notFound(_ message: String) -> Self { .init(.notFound, message) }

    /// Something with this identity exists already (409).
    public static func conflict(_ message: String, field: String? = nil) -> Self {
        .init(.conflict, message, field: field)
    }

    /// The same error about item `index` of the batch `list`: its field becomes `list[index].field`.
    public func inBatch(_ list: String, _ index: Int) -> Self {
        var error = self
        error.field = "\(list)[\(index)]" + (field.map { ".\($0)" } ?? "")
        return error
    }
}

extension FeedsError.Kind {
    /// Stream's numeric error code.
    public var code: Int {
        switch self {
        case .input, .conflict, .unsupportedMediaType, .notAcceptable, .methodNotAllowed, .idempotencyMismatch: 4
        case .authentication: 5
        case .badAPIKey: 2
        case .tokenExpired: 40
        case .tokenNotYetValid: 41
        case .tokenSignature: 43
        case .notAllowed: 17
        case .notFound: 16
        case .payloadTooLarge: 22
        case .rateLimited: 9
        case .unavailable, .internal, .badGateway, .gatewayTimeout: -1
        }
    }

    /// The HTTP status code.
    public var status: Int {
        switch self {
        case .input: 400
        case .authentication, .badAPIKey, .tokenExpired, .tokenNotYetValid, .tokenSignature: 401
        case .notAllowed: 403
        case .notFound: 404
        case .conflict: 409
        case .payloadTooLarge: 413
        case .unsupportedMediaType: 415
        case .notAcceptable: 406
        case .methodNotAllowed: 405
        case .idempotencyMismatch: 422
        case .badGateway: 502
        case .gatewayTimeout: 504
        case .rateLimited: 429
        case .unavailable: 503
        case .internal: 500
        }
    }
}

/// An error from a dependency that knows what it means to the client: the store's "the database
/// is down" or "text it cannot hold", found without the HTTP side knowing the driver.
package protocol ClientMeaningfulError: Error {
    /// What to answer, or nil when this error is the server's own fault.
    var feedsError: FeedsError? { get }
}

extension FeedsError {
    /// PostgreSQL stores no NUL character; checking every string of every body for it would cost
    /// each write what this costs only the rare request that holds one.
    package static let unstorable = FeedsError.input("text and custom data may not hold the NUL character (\\u0000)")

    /// The database dropped or refused the connection: 503 with a Retry-After, as past a deadline.
    package static let databaseUnavailable = FeedsError(.unavailable, "the database is not answering; try again")

    /// The probe finds the database refusing connections (`DatabaseProbe`): 503 at once.
    package static let databaseDown = FeedsError(.unavailable, "the database is down; try again")
}
