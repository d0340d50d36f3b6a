"""Steps: pinned activities as a feed's owner makes them: pin_activity, the feed's
pinned_activities and pin_count, query_pinned_activities, unpin_activity."""

from support import check_decoded, expect_equal, near_now, step


@step
def pins_pinned_listed_and_unpinned(run):
    feed = run.client.feeds.feed("user", run.alice)
    feed.get_or_create(user_id=run.alice)
    post = run.client.feeds.add_activity(type="post", feeds=[run.alice_feed], text="pin me", user_id=run.alice).data.activity
    made = run.client.feeds.pin_activity("user", run.alice, post.id, user_id=run.alice).data
    check_decoded(made)
    expect_equal((made.activity.id, made.feed, made.user_id), (post.id, run.alice_feed, run.alice), "the pin made")
    near_now(made.created_at, "the pin's created_at")

    read = feed.get_or_create(user_id=run.bob).data
    expect_equal(read.feed.pin_count, 1, "pin_count")
    expect_equal([p.activity.id for p in read.pinned_activities], [post.id], "the feed's pinned_activities")
    expect_equal(read.pinned_activities[0].user.id, run.alice, "who pinned it")

    listed = run.client.feeds.query_pinned_activities("user", run.alice, limit=10).data
    check_decoded(listed)
    expect_equal([p.activity.id for p in listed.pinned_activities], [post.id], "query_pinned_activities")

    gone = run.client.feeds.unpin_activity("user", run.alice, post.id, user_id=run.alice).data
    check_decoded(gone)
    expect_equal(gone.activity.id, post.id, "the unpinned activity")
    expect_equal(feed.get_or_create(user_id=run.alice).data.feed.pin_count, 0, "pin_count after unpinning")
