import Foundation

/// What QueryBookmarks asks for. A user sees only their own bookmarks; the server, anyone's.
public struct BookmarkQuery: Sendable, Hashable {
    public var userIDs: [String]?
    /// The activities bookmarked, or whose comments are.
    public var activityIDs: [String]?
    /// The activities or comments bookmarked.
    public var objectIDs: [String]?
    /// Only activities' bookmarks (false), only comments' (true), or both (nil).
    public var ofComments: Bool?
    public var folderIDs: [String]?
    public var createdAt: [TimeBound] = []
    public var page: KeysetPage

    /// Cursors name the last bookmark's activity, comment and folder ("" for none).
    public static let cursorKind = "b"

    public init(filter: JSONObject?, page: KeysetPage) throws(FeedsError) {
        self.page = page
        for (name, condition) in (filter ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch name {
            case "user_id": userIDs = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "activity_id": activityIDs = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "object_id": objectIDs = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "folder_id": folderIDs = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "created_at": createdAt = try FilterCondition.timeBounds(condition, field: name)
            case "object_type":
                let types = Set(try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"]))
                guard !types.isEmpty, types.isSubset(of: ["activity", "comment"]) else {
                    throw .input("bookmarks are of an activity or a comment", field: "filter.object_type")
                }
                ofComments = types.count == 2 ? nil : types == ["comment"]
            default:
                throw .input(
                    "filtering bookmarks on \"\(name)\" is not supported (user_id, activity_id, object_id, object_type, folder_id, created_at)",
                    field: "filter.\(name)")
            }
        }
    }
}

/// What QueryBookmarkFolders asks for. A user sees only their own folders; the server, anyone's.
public struct BookmarkFolderQuery: Sendable, Hashable {
    public var userIDs: [String]?
    public var names: [String]?
    public var createdAt: [TimeBound] = []
    public var page: KeysetPage

    /// Cursors name the last folder's id.
    public static let cursorKind = "f"

    public init(filter: JSONObject?, page: KeysetPage) throws(FeedsError) {
        self.page = page
        for (name, condition) in (filter ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch name {
            case "user_id": userIDs = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "name": names = try FilterCondition.strings(condition, field: name, operators: ["$eq", "$in"])
            case "created_at": createdAt = try FilterCondition.timeBounds(condition, field: name)
            default:
                throw .input(
                    "filtering bookmark folders on \"\(name)\" is not supported (user_id, name, created_at)",
                    field: "filter.\(name)")
            }
        }
    }
}

/// A page of bookmarks (with their activities) or folders, and the cursor to the next.
public struct BookmarkPage: Sendable {
    public var bookmarks: [(bookmark: Bookmark, activity: Activity)]
    public var next: KeysetCursor?

    public init(bookmarks: [(bookmark: Bookmark, activity: Activity)], next: KeysetCursor?) {
        self.bookmarks = bookmarks
        self.next = next
    }
}

public struct BookmarkFolderPage: Sendable, Hashable {
    public var folders: [BookmarkFolder]
    public var next: KeysetCursor?

    public init(folders: [BookmarkFolder], next: KeysetCursor?) {
        self.folders = folders
        self.next = next
    }
}
