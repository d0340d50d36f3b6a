"""Steps: feed groups as Stream's setup scripts make them (the React Native sample's
`createFeedGroup({id: 'hashtag'})`): the built-ins listed, an app's group created, used,
changed, deleted, restored and removed, and what a user token may not do; feed visibilities and
the grants an app sets on them."""

from getstream import Stream
from getstream.models import FeedMemberRequest

from support import check_decoded, expect, expect_api_error, expect_equal, near_now, step


@step
def feed_groups_built_in_and_listed(run):
    data = run.client.feeds.list_feed_groups().data
    check_decoded(data)
    for built_in in ["user", "timeline", "notification", "foryou", "story", "stories"]:
        assert built_in in data.groups, f"{built_in} missing from {sorted(data.groups)}"
    bell = data.groups["notification"]
    expect_equal(bell.default_visibility, "private", "notification's default visibility")
    expect_equal(
        bell.aggregation.format, '{{ target_id }}_{{ type }}_{{ time.strftime("%Y-%m-%d") }}', "notification's format"
    )
    expect_equal((bell.notification.track_seen, bell.notification.track_read), (True, True), "notification tracking")
    expect_equal(data.groups["timeline"].activity_selectors[0].type, "following", "timeline's selector")


@step
def feed_group_lifecycle(run):
    from getstream.models import AggregationConfig  # noqa: F401  (the SDK's own types, as an app imports them)

    group = f"hashtag{run.suffix}"
    created = run.client.feeds.create_feed_group(id=group, default_visibility="public", custom={"color": "blue"}).data
    check_decoded(created)
    expect_equal(created.feed_group.id, group, "the created group's id")
    expect_equal(created.feed_group.default_visibility, "public", "the created group's visibility")
    expect_equal(created.feed_group.custom, {"color": "blue"}, "the created group's custom data")
    near_now(created.feed_group.created_at, "the created group's created_at")
    expect_api_error(lambda: run.client.feeds.create_feed_group(id=group), 409, 4)

    again = run.client.feeds.get_or_create_feed_group(group, default_visibility="private").data
    check_decoded(again)
    expect_equal((again.was_created, again.feed_group.default_visibility), (False, "public"), "get-or-create of one")

    # Its feeds work like any other.
    feed = run.client.feeds.feed(group, "swift")
    made = feed.get_or_create(user_id=run.alice).data
    expect_equal((made.feed.group_id, made.feed.visibility), (group, "public"), "a feed of the new group")
    posted = run.client.feeds.add_activity(type="post", feeds=[f"{group}:swift"], text="#swift", user_id=run.alice).data
    expect_equal(posted.activity.feeds, [f"{group}:swift"], "an activity in the new group")

    updated = run.client.feeds.update_feed_group(group, default_visibility="followers").data
    check_decoded(updated)
    expect_equal(updated.feed_group.default_visibility, "followers", "the updated visibility")
    expect_equal(updated.feed_group.custom, {"color": "blue"}, "custom data kept through an update")
    expect_equal(run.client.feeds.get_feed_group(group).data.feed_group.default_visibility, "followers", "read back")

    run.client.feeds.delete_feed_group(group)
    expect_api_error(lambda: run.client.feeds.get_feed_group(group), 404, 16)
    deleted = run.client.feeds.get_feed_group(group, include_soft_deleted=True).data.feed_group
    near_now(deleted.deleted_at, "the deleted group's deleted_at")
    expect_api_error(
        lambda: run.client.feeds.add_activity(type="post", feeds=[f"{group}:swift"], text="no", user_id=run.alice), 400, 4
    )
    restored = run.client.feeds.restore_feed_group(group).data
    check_decoded(restored)
    expect_equal(restored.feed_group.deleted_at, None, "the restored group's deleted_at")
    expect_equal(len(feed.get_or_create(user_id=run.alice).data.activities), 1, "the feed back with its group")

    run.client.feeds.delete_feed_group(group, hard_delete=True)
    expect_api_error(lambda: run.client.feeds.get_feed_group(group, include_soft_deleted=True), 404, 16)


@step
def feed_group_refusals(run):
    expect_api_error(lambda: run.client.feeds.delete_feed_group("user"), 400, 4)
    expect_api_error(lambda: run.client.feeds.create_feed_group(id="has space"), 400, 4)
    from getstream.models import AggregationConfig

    expect_api_error(
        lambda: run.client.feeds.update_feed_group("notification", aggregation=AggregationConfig(format="{{ nope }}")),
        400,
        4,
    )
    expect_api_error(lambda: run.client.feeds.update_feed_group("missing"), 404, 16)


@step
def feed_visibilities_listed_and_read(run):
    levels = run.client.feeds.list_feed_visibilities().data
    check_decoded(levels)
    expect_equal(
        sorted(levels.feed_visibilities), ["followers", "members", "private", "public", "visible"], "the levels"
    )
    followers = run.client.feeds.get_feed_visibility("followers").data
    check_decoded(followers)
    assert "read-feed" in followers.feed_visibility.grants["feed_follower"], followers.feed_visibility.grants
    assert "read-feed" not in followers.feed_visibility.grants["user"], followers.feed_visibility.grants
    same = run.client.feeds.update_feed_visibility("followers", grants=followers.feed_visibility.grants).data
    check_decoded(same)
    expect_equal(same.feed_visibility.grants, followers.feed_visibility.grants, "the grants kept")
    expect_api_error(
        lambda: run.client.feeds.update_feed_visibility("followers", grants={"user": ["read-feed"]}), 400, 4
    )


@step
def feed_visibility_grants_let_members_post(run):
    """A community feed: the app grants its members posting at `visible` (UpdateFeedVisibility),
    a member posts with their own token and their feed read says so; then the grants go back."""
    club = f"club{run.suffix}"
    member = run.alice.replace("alice", "mia")
    run.client.feeds.feed("user", club).get_or_create(user_id=run.alice)
    run.client.feeds.update_feed_members("user", club, operation="upsert", members=[FeedMemberRequest(user_id=member)])
    as_member = Stream(api_key=run.api_key, token=run.client.create_token(member), base_url=run.base_url)
    post = dict(type="post", feeds=[f"user:{club}"], text="from a member")
    expect_api_error(lambda: as_member.feeds.add_activity(**post), 403, 17)

    before = run.client.feeds.get_feed_visibility("visible").data.feed_visibility.grants
    granted = run.client.feeds.update_feed_visibility(
        "visible", grants={"feed_member": before["feed_member"] + ["add-activity"]}
    ).data
    try:
        check_decoded(granted)
        assert "add-activity" in granted.feed_visibility.grants["feed_member"], granted.feed_visibility.grants
        assert "add-activity" not in granted.feed_visibility.grants["user"], granted.feed_visibility.grants
        made = as_member.feeds.add_activity(**post).data
        check_decoded(made)
        expect_equal(made.activity.user.id, member, "the member's post")
        read = as_member.feeds.feed("user", club).get_or_create().data
        assert "add-activity" in (read.feed.own_capabilities or []), read.feed.own_capabilities
        expect_equal(read.feed.own_membership.user.id, member, "own_membership")
        expect_equal([a.id for a in read.activities], [made.activity.id], "the club's page")
        expect_api_error(
            lambda: run.client.feeds.update_feed_visibility("visible", grants={"feed_member": ["follow"]}), 400, 4
        )
    finally:
        run.client.feeds.update_feed_visibility("visible", grants={"feed_member": before["feed_member"]})
    expect_equal(run.client.feeds.get_feed_visibility("visible").data.feed_visibility.grants, before, "the grants back")
    expect_api_error(lambda: as_member.feeds.add_activity(**post), 403, 17)


@step
def member_role_renames_a_community(run):
    """A member role (the `role` a member was given) granted `update-feed` at `visible`: its
    holders rename the community feed with their own token; the grant taken away, they may not."""
    club = f"guild{run.suffix}"
    moderator = run.alice.replace("alice", "mod")
    run.client.feeds.feed("user", club).get_or_create(user_id=run.alice)
    run.client.feeds.update_feed_members(
        "user", club, operation="upsert", members=[FeedMemberRequest(user_id=moderator, role="feed_moderator")]
    )
    as_moderator = Stream(api_key=run.api_key, token=run.client.create_token(moderator), base_url=run.base_url)
    expect_api_error(lambda: as_moderator.feeds.update_feed("user", club, name="Renamed"), 403, 17)

    granted = run.client.feeds.update_feed_visibility(
        "visible", grants={"feed_moderator": ["update-feed", "update-feed-followers"]}
    ).data
    try:
        check_decoded(granted)
        expect_equal(
            granted.feed_visibility.grants.get("feed_moderator"), ["update-feed", "update-feed-followers"], "the role's grants"
        )
        renamed = as_moderator.feeds.update_feed("user", club, name="Renamed").data
        check_decoded(renamed)
        expect_equal(renamed.feed.name, "Renamed", "the feed renamed by a moderator")
        read = as_moderator.feeds.feed("user", club).get_or_create().data
        expect_equal(read.feed.own_membership.role, "feed_moderator", "own_membership's role")
        assert "update-feed" in (read.feed.own_capabilities or []), read.feed.own_capabilities
        expect_api_error(
            lambda: run.client.feeds.update_feed_visibility("visible", grants={"feed_moderator": ["add-activity"]}), 400, 4
        )
    finally:
        run.client.feeds.update_feed_visibility("visible", grants={"feed_moderator": []})
    listed = run.client.feeds.get_feed_visibility("visible").data.feed_visibility.grants
    expect("feed_moderator" not in listed, f"the role's grants taken away: {listed}")
    expect_api_error(lambda: as_moderator.feeds.update_feed("user", club, name="Again"), 403, 17)
