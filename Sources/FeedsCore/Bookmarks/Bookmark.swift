import Foundation

/// A user's folder of bookmarks; names are unique per user.
public struct BookmarkFolder: Sendable, Hashable {
    /// The most folders one user keeps.
    public static let maxPerUser = 100

    public var id: String
    public var user: User
    public var name: String
    public var custom: JSONObject
    public var createdAt: Date
    public var updatedAt: Date

    public static let maxNameLength = 255

    public init(id: String, user: User, name: String, custom: JSONObject, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.user = user
        self.name = name
        self.custom = custom
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// A folder name: 1 to 255 bytes, not only spaces.
    public static func checkedName(_ name: String, field: String) throws(FeedsError) -> String {
        guard (1...maxNameLength).contains(name.utf8.count), !name.allSatisfy(\.isWhitespace) else {
            throw .input("\(field) is 1 to \(maxNameLength) bytes, not only spaces", field: field)
        }
        return name
    }
}

/// What a bookmark is of: an activity, or a comment (on an activity).
public enum BookmarkObject: Sendable, Hashable {
    case activity(String)
    case comment(String)
}

/// A user's bookmark of an activity or of a comment, in a folder or none. A user bookmarks an
/// activity or a comment once per folder (and once without one).
public struct Bookmark: Sendable, Hashable {
    /// The activity bookmarked, or the activity of the comment bookmarked.
    public var activityID: String
    /// The comment bookmarked, if it is a comment's bookmark; `comment` is the comment as its
    /// reader sees it, in replies that carry it.
    public var commentID: String?
    public var comment: Comment?
    public var user: User
    public var folder: BookmarkFolder?
    public var custom: JSONObject
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        activityID: String, commentID: String? = nil, user: User, folder: BookmarkFolder?, custom: JSONObject, createdAt: Date,
        updatedAt: Date
    ) {
        self.activityID = activityID
        self.commentID = commentID
        self.user = user
        self.folder = folder
        self.custom = custom
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// Which folder a bookmark goes to: one that exists, a new one, or none.
public enum FolderChoice: Sendable, Hashable {
    case none
    case existing(id: String)
    case new(name: String, custom: JSONObject)

    /// Reads `folder_id` and `new_folder`: at most one of them.
    public init(folderID: String?, newFolder: (name: String, custom: JSONObject?)?, field: String) throws(FeedsError) {
        switch (folderID.flatMap { $0.isEmpty ? nil : $0 }, newFolder) {
        case (nil, nil): self = .none
        case (let id?, nil): self = .existing(id: id)
        case (nil, let folder?):
            self = .new(
                name: try BookmarkFolder.checkedName(folder.name, field: field + "new_folder.name"), custom: folder.custom ?? [:])
        case (_?, _?): throw .input("give \(field)folder_id or \(field)new_folder, not both", field: field + "new_folder")
        }
    }
}
