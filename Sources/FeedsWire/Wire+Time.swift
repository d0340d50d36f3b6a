import FeedsAPI
import FeedsCore
import Foundation

extension Wire {
    /// A request's time (`TimeInput`): nanoseconds since 1970, or an RFC 3339 string.
    package static func date(_ input: Components.Schemas.TimeInput?, field: String) throws -> Date? {
        guard let input else { return nil }
        let date: Date? =
            switch input {
            case .case1(let nanoseconds): WireTime.date(from: .number(Double(nanoseconds)))
            case .case2(let text): WireTime.date(from: text)
            }
        guard let date else { throw FeedsError.input("\(field) is not a time: nanoseconds or RFC 3339", field: field) }
        return date
    }
}
