import FeedsCore
import Foundation
import OpenAPIRuntime

/// Times on the wire as Stream writes them: RFC 3339 in UTC with microseconds.
struct RFC3339DateTranscoder: DateTranscoder {
    func encode(_ date: Date) throws -> String { RFC3339.string(from: date) }

    func decode(_ text: String) throws -> Date {
        guard let date = RFC3339.date(from: text) else {
            throw FeedsError.input("\"\(text)\" is not an RFC 3339 time")
        }
        return date
    }
}

extension RFC3339DateTranscoder {
    /// Request bodies decoded as the OpenAPI runtime decodes them, for the routes that decode
    /// the generated types themselves (`HandWrittenRoute`).
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        let transcoder = RFC3339DateTranscoder()
        decoder.dateDecodingStrategy = .custom { try transcoder.decode(try $0.singleValueContainer().decode(String.self)) }
        return decoder
    }()
}
