import FeedsCore
import OpenAPIRuntime

/// How an error goes into the log: its cause, without the request it came with (the generated
/// handlers' `ServerError` carries the whole request, its `Authorization` header included), and
/// with anything shaped like a secret scrubbed (`Redaction`).
enum LoggedError {
    static func describe(_ error: any Error) -> String {
        let text =
            if let error = error as? ServerError {
                "\(error.operationID): \(String(reflecting: error.underlyingError))"
            } else {
                String(reflecting: error)
            }
        return Redaction.scrub(text)
    }
}
