import FeedsCore
import FeedsTestSupport
import Foundation
import Testing

/// A person's life in Feeds, for the tests of their erasure and export.
extension TestServer {
    /// Everything a person does in Feeds, to bob's things and to their own: returns bob's post,
    /// their post and their file URL.
    func liveALife(as erin: String) async throws -> (bobPost: String, erinPost: String, file: String) {
        let bobPost = try #require(try await addActivity(as: "bob", text: "bob's")["id"].string)
        var form = MultipartForm()
        form.add("file", fileName: "me.png", Data(PNGWriter.png(width: 40, height: 30)))
        let upload = try await upload("/uploads/image", as: erin, form: form)
        #expect(upload.status == 201, "\(upload.text)")
        let file = try #require(upload.body["file"].string)
        // A cached variant of it.
        #expect(try await fetch(file + "&w=10").status == 200)
        let erinPost = try #require(
            try await addActivity(
                as: erin, text: "their", extra: #""attachments":[{"type":"image","image_url":"\#(file)"}]"#)["id"].string)
        let steps: [(String, String, String?)] = [
            ("/feeds/activities/\(bobPost)/reactions", #"{"type":"like","create_notification_activity":true}"#, erin),
            ("/feeds/comments", #"{"object_id":"\#(bobPost)","object_type":"activity","comment":"nice","create_notification_activity":true}"#, erin),
            ("/feeds/comments", #"{"object_id":"\#(erinPost)","object_type":"activity","comment":"bob was here"}"#, "bob"),
            ("/feeds/activities/\(bobPost)/bookmarks", #"{"new_folder":{"name":"keep"}}"#, erin),
            ("/feeds/follows", #"{"source":"timeline:\#(erin)","target":"user:bob"}"#, erin),
            ("/feeds/follows", #"{"source":"timeline:bob","target":"user:\#(erin)"}"#, "bob"),
        ]
        for (path, json, user) in steps {
            let reply = try await api(.POST, path, as: user, json: json)
            #expect([200, 201].contains(reply.status), "\(path): \(reply.text)")
        }
        let comment = try await api(
            .POST, "/feeds/comments", as: "bob", json: #"{"object_id":"\#(bobPost)","object_type":"activity","comment":"mine"}"#)
        let commentID = try #require(comment.body["comment"]["id"].string)
        #expect(
            try await api(.POST, "/feeds/comments/\(commentID)/reactions", as: erin, json: #"{"type":"heart"}"#).status == 201)
        let poll = try await api(.POST, "/polls", as: "bob", json: #"{"name":"Lunch?","options":[{"text":"a"}]}"#)
        let pollID = try #require(poll.body["poll"]["id"].string)
        let option = try #require(poll.body["poll"]["options"][0]["id"].string)
        let pollPost = try #require(try await addActivity(as: "bob", extra: #""poll_id":"\#(pollID)""#)["id"].string)
        #expect(
            try await api(
                .POST, "/feeds/activities/\(pollPost)/polls/\(pollID)/vote", as: erin, json: #"{"vote":{"option_id":"\#(option)"}}"#
            ).status == 201)
        #expect(try await api(.POST, "/polls", as: erin, json: #"{"name":"Mine","options":[{"text":"x"}]}"#).status == 201)
        return (bobPost, erinPost, file)
    }

    /// Waits for the task to end and returns it.
    func finished(_ reply: TestServer.Reply) async throws -> JSONValue {
        #expect(reply.status == 201, "\(reply.text)")
        let id = try #require(reply.body["task_id"].string)
        try await eventually("task \(id) done") {
            let task = try await api(.GET, "/tasks/\(id)", as: nil).body
            return ["completed", "failed"].contains(task["status"].string ?? "")
        }
        let task = try await api(.GET, "/tasks/\(id)", as: nil).body
        #expect(task["status"].string == "completed", "\(task)")
        return task
    }
}
