"""Steps: the feed and follow calls apps make at sign-up and on their home page:
create_feeds_batch, get_or_create_follows, get_follow_suggestions."""

from getstream.models import FeedInput, FeedRequest, FollowRequest

from support import check_decoded, expect_equal, step


@step
def feeds_created_in_batch(run):
    run.client.feeds.get_or_create_feed_group(f"tag{run.suffix}")
    feeds = [
        FeedRequest(feed_group_id=f"tag{run.suffix}", feed_id=name, created_by_id=run.alice, name=f"#{name}")
        for name in ("swift", "python")
    ] + [FeedRequest(feed_group_id="timeline", feed_id=run.bob, created_by_id=run.bob)]
    data = run.client.feeds.create_feeds_batch(feeds=feeds).data
    check_decoded(data)
    expect_equal(
        [feed.feed for feed in data.feeds],
        [f"tag{run.suffix}:swift", f"tag{run.suffix}:python", f"timeline:{run.bob}"],
        "the feeds made",
    )
    expect_equal((data.feeds[0].name, data.feeds[0].created_by.id), ("#swift", run.alice), "a made feed's fields")
    again = run.client.feeds.create_feeds_batch(feeds=feeds[:1]).data
    expect_equal(again.feeds[0].created_at, data.feeds[0].created_at, "an existing feed returned as it is")


@step
def follows_got_or_created(run):
    run.client.feeds.feed("timeline", run.alice).get_or_create(user_id=run.alice)
    run.client.feeds.feed("user", run.bob).get_or_create(user_id=run.bob)
    follows = [FollowRequest(source=f"timeline:{run.alice}", target=run.bob_feed)]
    first = run.client.feeds.get_or_create_follows(follows=follows).data
    check_decoded(first)
    again = run.client.feeds.get_or_create_follows(follows=follows).data
    expect_equal(len(again.follows), 1, "the follow returned again")
    expect_equal(again.follows[0].target_feed.feed, run.bob_feed, "the follow's target")


@step
def follow_suggestions(run):
    erin = run.alice.replace("alice", "erin")
    run.client.feeds.feed("user", erin).get_or_create(user_id=erin)
    data = run.client.feeds.get_follow_suggestions("user", limit=100, user_id=run.bob).data
    check_decoded(data)
    found = [feed.feed for feed in data.suggestions]
    assert f"user:{erin}" in found, f"user:{erin} not among bob's suggestions {found}"
    assert run.bob_feed not in found, "bob's own feed suggested to him"
    assert data.suggestions[0].reason in ("popular", "friends_of_friends"), data.suggestions[0].reason


@step
def follow_suggestions_friends_of_friends(run):
    """Whom the feeds you follow follow comes first."""
    names = [run.alice.replace("alice", name) for name in ("fofa", "fofb", "fofc")]
    for name in names:
        run.client.feeds.feed("user", name).get_or_create(user_id=name)
        run.client.feeds.feed("timeline", name).get_or_create(user_id=name)
    run.client.feeds.follow(source=f"timeline:{names[0]}", target=f"user:{names[1]}")
    run.client.feeds.follow(source=f"timeline:{names[1]}", target=f"user:{names[2]}")
    data = run.client.feeds.get_follow_suggestions("user", limit=5, user_id=names[0]).data
    check_decoded(data)
    expect_equal(
        (data.suggestions[0].feed, data.suggestions[0].reason), (f"user:{names[2]}", "friends_of_friends"),
        "a friend's follow first",
    )
    expect_equal(data.algorithm_used, "friends_of_friends", "the algorithm named")


@step
def own_capabilities_batch(run):
    """The Swift SDK's call for feeds an event names (the Python SDK has no method for it: this goes
    through the SDK's own transport, key and token)."""
    run.client.feeds.feed("user", run.alice).get_or_create(user_id=run.alice)
    reply = run.client.feeds.post(
        "/api/v2/feeds/feeds/own_capabilities/batch",
        json={"feeds": [run.alice_feed, "user:nobody-here"], "user_id": run.bob},
    )
    capabilities = reply.data["capabilities"] if isinstance(reply.data, dict) else reply.data.capabilities
    expect_equal(sorted(capabilities), [run.alice_feed], "the feeds with capabilities")
    assert "follow" in capabilities[run.alice_feed], f"bob's capabilities on alice's feed: {capabilities}"


@step
def feed_visibility_changed(run):
    feed = run.client.feeds.feed("user", f"vis{run.suffix}")
    feed.get_or_create(user_id=run.alice, data=FeedInput(visibility="followers"))
    data = feed.change_feed_visibility(visibility="visible", pending_follows_action="auto_approve").data
    check_decoded(data)
    expect_equal((data.feed.feed, data.feed.visibility), (f"user:vis{run.suffix}", "visible"), "the feed as it now is")


@step
def feeds_deleted_with_their_task(run):
    gone = run.client.feeds.feed("user", f"gone{run.suffix}")
    gone.get_or_create(user_id=run.alice)
    data = gone.delete(hard_delete=True).data
    check_decoded(data)
    task = run.client.get_task(data.task_id).data
    check_decoded(task)
    expect_equal((task.task_id, task.status), (data.task_id, "completed"), "the task that deleted it")
    expect_equal(task.result.get("deleted_feeds"), 1, "the task's result")
    batch = [f"user:batch{run.suffix}a", f"user:batch{run.suffix}b"]
    for fid in batch:
        run.client.feeds.feed(*fid.split(":")).get_or_create(user_id=run.alice)
    deleted = run.client.feeds.delete_feeds_batch(feeds=batch).data
    check_decoded(deleted)
    assert deleted.task_id, "a batch names its task"
    found = run.client.feeds.query_feeds(filter={"feed": {"$in": batch}}).data.feeds
    expect_equal(found, [], "the batch's feeds after it")
