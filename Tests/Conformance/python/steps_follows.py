"""Steps: Follow, own_follows, FollowBatch, QueryFollows, AcceptFollow, RejectFollow, Unfollow, UpdateFollow,
UnfollowBatch, GetOrCreateUnfollows, and timelines."""

from getstream.models import FeedInput, FollowRequest, SortParamRequest, UnfollowPair

from support import check_decoded, expect_equal, step


def timeline_ids(run, user):
    data = run.client.feeds.get_or_create_feed("timeline", user, user_id=user).data
    check_decoded(data)
    return [activity.id for activity in data.activities]


@step
def follow_fills_the_timeline(run):
    run.client.feeds.feed("timeline", run.alice).get_or_create(user_id=run.alice)
    data = run.client.feeds.follow(source=f"timeline:{run.alice}", target=run.bob_feed).data
    check_decoded(data)
    expect_equal((data.follow.status, data.follow.target_feed.follower_count), ("accepted", 1), "status, follower_count")
    expect_equal(data.follow.source_feed.following_count, 1, "following_count")
    expect_equal(timeline_ids(run, run.alice), run.notes, "bob's notes copied into alice's timeline")
    again = run.client.feeds.follow(source=f"timeline:{run.alice}", target=run.bob_feed).data
    expect_equal(again.follow.target_feed.follower_count, 1, "follower_count after following twice")


@step
def own_follows_on_the_followed_feed(run):
    """The follow button's source: alice's follow of bob's feed, on bob's feed as alice reads it."""
    data = run.client.feeds.get_or_create_feed("user", run.bob, user_id=run.alice).data
    check_decoded(data)
    expect_equal(
        [(follow.source_feed.feed, follow.target_feed.feed) for follow in data.feed.own_follows or []],
        [(f"timeline:{run.alice}", run.bob_feed)],
        "alice's own_follows of bob's feed",
    )
    expect_equal(data.feed.own_membership, None, "alice is no member of bob's feed")
    others = run.client.feeds.get_or_create_feed("user", run.bob, user_id=run.bob).data.feed.own_follows
    expect_equal(others, [], "bob's own_follows of his own feed")
    # Stream's sample app draws each timeline post's follow button from its current_feed's own_follows.
    timeline = run.client.feeds.get_or_create_feed("timeline", run.alice, user_id=run.alice, limit=1).data
    check_decoded(timeline)
    current = timeline.activities[0].current_feed
    expect_equal(current.feed, run.bob_feed, "a timeline copy's current_feed")
    expect_equal(
        [(follow.source_feed.feed, follow.target_feed.feed) for follow in current.own_follows or []],
        [(f"timeline:{run.alice}", run.bob_feed)],
        "alice's own_follows on the copy's current_feed",
    )


@step
def follows_query(run):
    data = run.client.feeds.query_follows(
        filter={"target_feed": run.bob_feed}, sort=[SortParamRequest(field="created_at", direction=-1)], limit=10
    ).data
    check_decoded(data)
    expect_equal([follow.source_feed.feed for follow in data.follows], [f"timeline:{run.alice}"], "bob's followers")


@step
def follow_batch(run):
    run.client.feeds.feed("timeline", run.bob).get_or_create(user_id=run.bob)
    follows = [FollowRequest(source=f"timeline:{run.bob}", target=run.alice_feed)] * 2
    data = run.client.feeds.follow_batch(follows=follows).data
    check_decoded(data)
    expect_equal((len(data.follows), len(data.created)), (2, 1), "follows and newly created")


@step
def follow_requests(run):
    carol = run.alice.replace("alice", "carol")
    run.client.feeds.feed("user", carol).get_or_create(user_id=carol, data=FeedInput(visibility="followers"))
    source, target = f"timeline:{run.alice}", f"user:{carol}"
    pending = run.client.feeds.follow(source=source, target=target).data
    expect_equal(pending.follow.status, "pending", "a follow of a followers-only feed")
    accepted = run.client.feeds.accept_follow(source=source, target=target).data
    check_decoded(accepted)
    expect_equal(accepted.follow.status, "accepted", "after accept_follow")
    run.client.feeds.follow(source=f"timeline:{run.bob}", target=target)
    rejected = run.client.feeds.reject_follow(source=f"timeline:{run.bob}", target=target).data
    check_decoded(rejected)
    expect_equal(rejected.follow.status, "rejected", "after reject_follow")


@step
def unfollow_empties_the_timeline(run):
    data = run.client.feeds.unfollow(f"timeline:{run.alice}", run.bob_feed).data
    check_decoded(data)
    expect_equal(data.follow.target_feed.follower_count, 0, "bob's follower_count after unfollow")
    expect_equal(timeline_ids(run, run.alice), [], "alice's timeline after unfollowing bob")


@step
def reject_removes_an_accepted_follower(run):
    """A feed's owner removes a follower (RejectFollow on an accepted follow): the follower no
    longer counts, and its timeline loses the feed's posts."""
    dave = run.alice.replace("alice", "dave")
    run.client.feeds.feed("user", dave).get_or_create(user_id=dave, data=FeedInput(visibility="followers"))
    run.client.feeds.add_activity(type="post", feeds=[f"user:{dave}"], text="for followers", user_id=dave)
    source, target = f"timeline:{run.alice}", f"user:{dave}"
    run.client.feeds.follow(source=source, target=target)
    accepted = run.client.feeds.accept_follow(source=source, target=target).data
    expect_equal((accepted.follow.status, accepted.follow.target_feed.follower_count), ("accepted", 1), "accepted follow")
    expect_equal(len(timeline_ids(run, run.alice)), 1, "dave's post in alice's timeline")
    removed = run.client.feeds.reject_follow(source=source, target=target).data
    check_decoded(removed)
    following = accepted.follow.source_feed.following_count
    expect_equal(
        (removed.follow.status, removed.follow.target_feed.follower_count, removed.follow.source_feed.following_count),
        ("rejected", 0, following - 1),
        "status and counts after rejecting an accepted follow",
    )
    expect_equal(timeline_ids(run, run.alice), [], "alice's timeline after she was removed as a follower")


@step
def follow_from_a_timeline_never_read(run):
    """Stream's docs follow from a timeline never fetched: the follow makes it, for its owner."""
    user = f"newcomer-{run.suffix}"
    data = run.client.feeds.follow(source=f"timeline:{user}", target=run.bob_feed).data
    check_decoded(data)
    expect_equal(
        (data.follow.source_feed.feed, data.follow.source_feed.created_by.id, data.follow.status),
        (f"timeline:{user}", user, "accepted"),
        "the new timeline, its owner, the follow",
    )
    run.client.feeds.unfollow(f"timeline:{user}", run.bob_feed)


@step
def update_follow_and_unfollow_in_batches(run):
    """UpdateFollow, then UnfollowBatch and GetOrCreateUnfollows on a pair of new follows."""
    user = f"batcher-{run.suffix}"
    for target in (run.alice_feed, run.bob_feed):
        run.client.feeds.follow(source=f"timeline:{user}", target=target)
    updated = run.client.feeds.update_follow(
        source=f"timeline:{user}", target=run.bob_feed, custom={"close": True}, push_preference="all", follower_role="fan"
    ).data
    check_decoded(updated)
    expect_equal(
        (updated.follow.custom, updated.follow.push_preference, updated.follow.follower_role),
        ({"close": True}, "all", "fan"),
        "the follow's custom data, push preference and role",
    )
    pairs = [
        UnfollowPair(source=f"timeline:{user}", target=run.alice_feed),
        UnfollowPair(source=f"timeline:{user}", target=f"user:nobody-{run.suffix}"),
    ]
    upserted = run.client.feeds.get_or_create_unfollows(follows=pairs).data
    check_decoded(upserted)
    expect_equal([f.target_feed.feed for f in upserted.follows], [run.alice_feed], "the one follow that existed ended")
    ended = run.client.feeds.unfollow_batch(
        follows=[UnfollowPair(source=f"timeline:{user}", target=run.bob_feed, keep_history=True)]
    ).data
    check_decoded(ended)
    expect_equal([f.target_feed.feed for f in ended.follows], [run.bob_feed], "the batch's follow ended")


@step
def get_or_create_one_follow_and_unfollow(run):
    user = f"single-{run.suffix}"
    made = run.client.feeds.get_or_create_follow(source=f"timeline:{user}", target=run.alice_feed).data
    check_decoded(made)
    expect_equal((made.created, made.follow.target_feed.feed, made.follow.status), (True, run.alice_feed, "accepted"), "a new follow")
    again = run.client.feeds.get_or_create_follow(source=f"timeline:{user}", target=run.alice_feed).data
    check_decoded(again)
    expect_equal((again.created, again.follow.created_at), (False, made.follow.created_at), "the same follow, not made again")
    ended = run.client.feeds.get_or_create_unfollow(source=f"timeline:{user}", target=run.alice_feed).data
    check_decoded(ended)
    expect_equal((ended.deleted, ended.follow.target_feed.feed), (True, run.alice_feed), "the follow ended")
    none = run.client.feeds.get_or_create_unfollow(source=f"timeline:{user}", target=run.alice_feed).data
    check_decoded(none)
    expect_equal((none.deleted, none.follow), (False, None), "no follow to end, and no error")
