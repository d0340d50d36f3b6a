import FeedsCore
import Foundation

/// The uploads list's filters as the query string carries them, checked: a value that is not a
/// kind, a state or a cursor of ours is refused rather than guessed at.
package struct UploadsQuery: Sendable, Equatable {
    package var filter = UploadFilter()

    package init(_ query: [String: String]) throws(FeedsError) {
        if let user = query["user"]?.trimmingCharacters(in: .whitespaces), !user.isEmpty {
            guard user.utf8.count <= 255 else { throw FeedsError.input("a user id is at most 255 bytes", field: "user") }
            filter.owner = user
        }
        if let kind = query["kind"], !kind.isEmpty {
            guard let kind = ObjectRecord.Kind(rawValue: kind) else {
                throw FeedsError.input("kind is image or file", field: "kind")
            }
            filter.kind = kind
        }
        if let state = query["state"], !state.isEmpty {
            guard let state = UploadFilter.StateGroup(rawValue: state) else {
                throw FeedsError.input("state is pending, attached, released or deleted", field: "state")
            }
            filter.state = state
        }
        if let time = query["before_time"], let key = query["before_key"] {
            guard let micros = Int64(time), ObjectKey(rawValue: key) != nil else {
                throw FeedsError.input("before_time and before_key are not a page of this list", field: "before_time")
            }
            filter.before = UploadCursor(createdMicros: micros, key: key)
        }
    }

    /// The filters (not the page) as a query string, for links and redirects back to the list.
    package var filterQuery: String {
        var items: [URLQueryItem] = []
        if let owner = filter.owner { items.append(.init(name: "user", value: owner)) }
        if let kind = filter.kind { items.append(.init(name: "kind", value: kind.rawValue)) }
        if let state = filter.state { items.append(.init(name: "state", value: state.rawValue)) }
        return Self.encode(items)
    }

    /// The next page after `last`, with these filters.
    package func olderQuery(after last: UploadListing) -> String {
        let page = Self.encode([
            .init(name: "before_time", value: String(last.createdMicros)),
            .init(name: "before_key", value: last.record.key.rawValue),
        ])
        return filterQuery.isEmpty ? page : filterQuery + "&" + page
    }

    /// Strict percent-encoding: only unreserved characters stay as they are.
    package static func encode(_ items: [URLQueryItem]) -> String {
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return items.map { item in
            let value = item.value?.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
            return "\(item.name)=\(value)"
        }.joined(separator: "&")
    }
}
