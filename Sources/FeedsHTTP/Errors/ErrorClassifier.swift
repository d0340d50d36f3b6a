import FeedsCore
import Foundation
import Hummingbird
import NIOCore
import OpenAPIRuntime

/// Finds the domain meaning of any error a request can end with.
package enum ErrorClassifier {
    package static func classify(_ error: any Error) -> FeedsError {
        if let meaning = (error as? any ClientMeaningfulError)?.feedsError { return meaning }
        switch error {
        case let error as FeedsError:
            return error
        case let error as ServerError:
            if let underlying = error.underlyingError as? FeedsError { return underlying }
            if let meaning = (error.underlyingError as? any ClientMeaningfulError)?.feedsError { return meaning }
            if error.underlyingError is NIOTooManyBytesError { return classify(error.underlyingError) }
            if let decoding = error.underlyingError as? DecodingError { return input(from: decoding) }
            if error.operationInput == nil {
                // The request did not parse into the operation's input: the client's mistake.
                let cause = error.causeDescription
                if cause.lowercased().contains("content type") || cause.lowercased().contains("content-type") {
                    return FeedsError(.unsupportedMediaType, cause)
                }
                return .input("\(cause): \(error.underlyingError)")
            }
            return FeedsError(.internal, "\(error.underlyingError)")
        case let error as HTTPError:
            switch error.status {
            case .notFound: return .notFound(error.body ?? "not found")
            case .contentTooLarge: return FeedsError(.payloadTooLarge, error.body ?? "payload too large")
            case .badRequest: return .input(error.body ?? "bad request")
            case .unsupportedMediaType: return FeedsError(.unsupportedMediaType, error.body ?? "unsupported media type")
            default: return FeedsError(.internal, "\(error)")
            }
        case let error as DecodingError:
            return input(from: error)
        case is NIOTooManyBytesError:
            // A body collected whole (JSON, or a type no route streams) that ran past its cap, sent chunked.
            return FeedsError(.payloadTooLarge, "the request body is larger than this route takes")
        default:
            return FeedsError(.internal, "\(error)")
        }
    }

    /// A JSON body that does not fit the schema: name the field at fault.
    static func input(from error: DecodingError) -> FeedsError {
        let (path, problem): ([any CodingKey], String) =
            switch error {
            case .keyNotFound(let key, let context): (context.codingPath + [key], "is required")
            case .typeMismatch(let type, let context): (context.codingPath, "must be \(describe(type))")
            case .valueNotFound(let type, let context): (context.codingPath, "must be \(describe(type)), not null")
            case .dataCorrupted(let context):
                (
                    context.codingPath,
                    context.codingPath.isEmpty ? "body is not valid JSON" : "is not valid: \(context.debugDescription)"
                )
            @unknown default: ([], "is not valid")
            }
        let field = path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            .reduce("") { result, part in part.hasPrefix("[") || result.isEmpty ? result + part : result + "." + part }
        return field.isEmpty ? .input(problem) : .input("\(field) \(problem)", field: field)
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int32.Type, is Int64.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        case is Bool.Type: "a boolean"
        default: String(describing: type).contains("Array") ? "an array" : "an object"
        }
    }
}
