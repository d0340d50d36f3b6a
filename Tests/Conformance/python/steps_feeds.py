"""Steps: GetOrCreateFeed, UpdateFeed, QueryFeeds, OwnBatch."""

from getstream.models import SortParamRequest

from support import check_decoded, expect_equal, near_now, page_through, step


@step
def feed_get_or_create(run):
    feed = run.client.feeds.feed("user", run.alice)
    data = feed.get_or_create(user_id=run.alice).data
    check_decoded(data)
    expect_equal((data.feed.feed, data.feed.group_id, data.feed.id), (run.alice_feed, "user", run.alice), "feed")
    near_now(data.feed.created_at, "feed.created_at")
    near_now(data.feed.updated_at, "feed.updated_at")
    expect_equal([activity.id for activity in data.activities], [run.activities["with files"].id], "activities")
    assert "add-activity" in (data.feed.own_capabilities or []), f"own_capabilities {data.feed.own_capabilities}"
    expect_equal(feed.get_or_create(user_id=run.alice).data.created, False, "created, the second time")


@step
def feed_update(run):
    feed = run.client.feeds.feed("user", run.alice)
    data = feed.update(name="Alice's posts", custom={"color": "blue"}).data
    check_decoded(data)
    expect_equal((data.feed.name, data.feed.custom), ("Alice's posts", {"color": "blue"}), "name and custom")
    # What is not sent stays.
    data = run.client.feeds.update_feed("user", run.alice, description="news").data
    expect_equal((data.feed.name, data.feed.description), ("Alice's posts", "news"), "name and description")
    near_now(data.feed.updated_at, "feed.updated_at")


@step
def feed_pages(run):
    pages = page_through(
        lambda cursor: run.client.feeds.get_or_create_feed("user", run.bob, user_id=run.bob, limit=2, next=cursor).data
    )
    expect_equal(sum(pages, []), run.notes, "ids over all pages, newest first")


@step
def feeds_query(run):
    data = run.client.feeds.query_feeds(filter={"feed": {"$in": [run.alice_feed, run.bob_feed]}}).data
    check_decoded(data)
    expect_equal(sorted(feed.feed for feed in data.feeds), sorted([run.alice_feed, run.bob_feed]), "feeds found")
    for feed in data.feeds:
        near_now(feed.created_at, f"{feed.feed}.created_at")
    mine = run.client.feeds.query_feeds(filter={"group_id": "user", "created_by_id": run.alice}).data
    expect_equal([feed.feed for feed in mine.feeds], [run.alice_feed], "feeds alice created")


@step
def feeds_query_pages(run):
    seen, cursor = [], None
    for _ in range(5):
        data = run.client.feeds.query_feeds(
            filter={"group_id": "user", "feed": {"$in": [run.alice_feed, run.bob_feed]}},
            sort=[SortParamRequest(field="created_at", direction=-1)],
            limit=1,
            next=cursor,
        ).data
        check_decoded(data)
        seen += [feed.feed for feed in data.feeds]
        cursor = data.next
        if not cursor:
            break
    expect_equal(sorted(seen), sorted([run.alice_feed, run.bob_feed]), "feeds over all pages")


@step
def own_batch(run):
    data = run.client.feeds.own_batch(feeds=[run.alice_feed], user_id=run.alice).data
    check_decoded(data)
    expect_equal(list(data.data), [run.alice_feed], "feeds answered")
    own = data.data[run.alice_feed]
    assert "add-activity" in (own.own_capabilities or []), f"own_capabilities {own.own_capabilities}"


@step
def feed_page_names_each_activitys_current_feed(run):
    """Stream's clients read an activity's buttons off its current_feed's own_capabilities."""
    run.client.feeds.add_activity(type="post", feeds=[run.alice_feed], text="where am I", user_id=run.alice)
    data = run.client.feeds.feed("user", run.alice).get_or_create(user_id=run.alice, limit=1).data
    check_decoded(data)
    current = data.activities[0].current_feed
    expect_equal(current.feed, run.alice_feed, "the feed it is read in")
    assert "add-activity" in current.own_capabilities, current.own_capabilities


@step
def get_and_query_name_an_activitys_one_feed(run):
    """Off a feed's page, an activity posted to one feed names it as current_feed (Stream's rule)."""
    added = run.client.feeds.add_activity(
        type="current-feed-check", feeds=[run.alice_feed], text="current here", user_id=run.alice
    ).data.activity
    got = run.client.feeds.get_activity(id=added.id).data
    check_decoded(got)
    expect_equal(got.activity.current_feed.feed, run.alice_feed, "GetActivity's current_feed")
    page = run.client.feeds.query_activities(
        filter={"user_id": run.alice, "type": "current-feed-check"}, user_id=run.alice
    ).data
    check_decoded(page)
    expect_equal([a.current_feed.feed for a in page.activities], [run.alice_feed], "QueryActivities' current_feed")
