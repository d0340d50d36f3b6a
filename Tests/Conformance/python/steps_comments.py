"""Steps: comments (add, reply, thread, replies, get, update, partial update, delete, restore), comment_count, bookmarks of comments, batches, and reactions to comments."""

from getstream.models import AddCommentRequest

from support import check_decoded, expect_equal, step


@step
def comments_thread(run):
    note = run.notes[2]
    top = run.client.feeds.add_comment(comment="Nice note", object_id=note, object_type="activity", user_id=run.alice).data
    check_decoded(top)
    expect_equal((top.comment.text, top.comment.object_id, top.comment.user.id), ("Nice note", note, run.alice), "the comment")
    reply = run.client.feeds.add_comment(comment="Thanks", parent_id=top.comment.id, user_id=run.bob).data
    check_decoded(reply)
    expect_equal(reply.comment.parent_id, top.comment.id, "the reply's parent_id")
    run.comments = (top.comment.id, reply.comment.id)
    thread = run.client.feeds.get_comments(object_id=note, object_type="activity", depth=1, replies_limit=5).data
    check_decoded(thread)
    expect_equal([c.text for c in thread.comments], ["Nice note"], "the thread's comments")
    expect_equal([r.text for r in thread.comments[0].replies], ["Thanks"], "the first comment's replies")
    replies = run.client.feeds.get_comment_replies(top.comment.id).data
    check_decoded(replies)
    expect_equal([r.id for r in replies.comments], [reply.comment.id], "get_comment_replies")
    activity = run.client.feeds.get_activity(note).data.activity
    expect_equal(activity.comment_count, 2, "comment_count")
    queried = run.client.feeds.query_comments(filter={"user_id": run.bob}).data
    check_decoded(queried)
    expect_equal([c.id for c in queried.comments], [reply.comment.id], "bob's comments by query_comments")


@step
def comment_bookmarks(run):
    top, _ = run.comments
    added = run.client.feeds.add_comment_bookmark(top, user_id=run.bob, custom={"why": "kind"}).data
    check_decoded(added)
    bookmark = added.bookmark
    expect_equal((bookmark.object_type, bookmark.object_id), ("comment", top), "object_type, object_id")
    expect_equal((bookmark.comment.id, bookmark.comment.bookmark_count), (top, 1), "the comment and its bookmark_count")
    expect_equal(bookmark.activity.id, run.notes[2], "the comment's activity")
    expect_equal(bookmark.custom, {"why": "kind"}, "custom")
    updated = run.client.feeds.update_comment_bookmark(top, user_id=run.bob, custom={"why": "kinder"}).data
    check_decoded(updated)
    expect_equal(updated.bookmark.custom, {"why": "kinder"}, "custom after update_comment_bookmark")
    listed = run.client.feeds.query_bookmarks(user_id=run.bob, filter={"object_type": "comment"}).data
    check_decoded(listed)
    expect_equal([(b.object_type, b.comment.id) for b in listed.bookmarks], [("comment", top)], "bob's comment bookmarks")
    removed = run.client.feeds.delete_comment_bookmark(top, user_id=run.bob).data
    check_decoded(removed)
    expect_equal(removed.bookmark.comment.bookmark_count, 0, "bookmark_count after delete_comment_bookmark")


@step
def comments_batch_and_their_reactions(run):
    note = run.notes[2]
    made = run.client.feeds.add_comments_batch(
        comments=[
            AddCommentRequest(comment="First of two", object_id=note, object_type="activity", user_id=run.alice),
            AddCommentRequest(comment="Second of two", object_id=note, object_type="activity", user_id=run.bob),
        ]
    ).data
    check_decoded(made)
    expect_equal([(c.text, c.user.id) for c in made.comments], [("First of two", run.alice), ("Second of two", run.bob)], "the batch")
    ids = [c.id for c in made.comments]
    for comment_id in ids:
        run.client.feeds.add_comment_reaction(comment_id, type="like", user_id=run.alice)
    found = run.client.feeds.batch_query_comment_reactions(comment_ids=ids, user_id=run.alice).data
    check_decoded(found)
    expect_equal(sorted(r.comment_id for r in found.reactions), sorted(ids), "alice's likes on the two comments")
    for comment_id in ids:
        run.client.feeds.delete_comment(comment_id, hard_delete=True)


@step
def comment_reactions(run):
    top, _ = run.comments
    added = run.client.feeds.add_comment_reaction(top, type="like", user_id=run.bob).data
    check_decoded(added)
    expect_equal((added.reaction.comment_id, added.comment.reaction_count), (top, 1), "comment_id, reaction_count")
    expect_equal([r.type for r in added.comment.own_reactions], ["like"], "bob's own reactions on the comment")
    found = run.client.feeds.query_comment_reactions(top, filter={"reaction_type": "like"}).data
    check_decoded(found)
    expect_equal([r.user.id for r in found.reactions], [run.bob], "who liked the comment")
    removed = run.client.feeds.delete_comment_reaction(top, "like", user_id=run.bob).data
    check_decoded(removed)
    expect_equal(removed.comment.reaction_count, 0, "reaction_count after delete_comment_reaction")


@step
def comment_update_and_delete(run):
    top, reply = run.comments
    got = run.client.feeds.get_comment(reply).data
    check_decoded(got)
    updated = run.client.feeds.update_comment(reply, comment="Thanks!", user_id=run.bob).data
    check_decoded(updated)
    expect_equal(updated.comment.text, "Thanks!", "the edited text")
    deleted = run.client.feeds.delete_comment(top, hard_delete=True).data
    check_decoded(deleted)
    expect_equal(deleted.activity.comment_count, 0, "comment_count after deleting the thread")


@step
def comment_updated_partially_and_restored(run):
    post = run.client.feeds.add_activity(type="post", feeds=[run.alice_feed], text="talk", user_id=run.alice).data.activity
    made = run.client.feeds.add_comment(
        comment="first", object_id=post.id, object_type="activity", custom={"a": 1}, user_id=run.bob).data.comment
    changed = run.client.feeds.update_comment_partial(
        made.id, user_id=run.bob, set={"text": "edited", "custom.b": 2}, unset=["custom.a"]).data
    check_decoded(changed)
    expect_equal((changed.comment.text, changed.comment.custom), ("edited", {"b": 2}), "update_comment_partial")

    run.client.feeds.delete_comment(made.id)
    restored = run.client.feeds.restore_comment(made.id, user_id=run.bob).data
    check_decoded(restored)
    expect_equal((restored.comment.id, restored.comment.text), (made.id, "edited"), "the restored comment")
    expect_equal(restored.activity.comment_count, 1, "the activity counts it again")
