"""Steps: feed members as Stream's apps manage them: update_feed_members (upsert with an invite,
remove), the invitee's answer, query_feed_members, the members a feed read lists, and membership
levels with the tagged activities they give."""

from getstream import Stream
from getstream.models import FeedInput, FeedMemberRequest, SortParamRequest

from support import check_decoded, expect_api_error, expect_equal, near_now, step


@step
def members_of_a_members_feed(run):
    club, room = "club", f"room{run.suffix}"
    carol = run.alice.replace("alice", "carol")
    run.client.feeds.get_or_create_feed_group(room)
    feed = run.client.feeds.feed(room, club)
    made = feed.get_or_create(user_id=run.alice, data=FeedInput(visibility="members")).data
    expect_equal(made.feed.member_count, 0, "a new feed's member_count")
    changed = run.client.feeds.update_feed_members(
        room,
        club,
        operation="upsert",
        members=[FeedMemberRequest(user_id=run.bob, role="moderator"), FeedMemberRequest(user_id=carol, invite=True)],
    ).data
    check_decoded(changed)
    expect_equal(
        sorted((m.user.id, m.role, m.status) for m in changed.added),
        sorted([(run.bob, "moderator", "member"), (carol, "feed_member", "pending")]),
        "the members added",
    )
    read = feed.get_or_create(user_id=run.bob).data
    expect_equal([m.user.id for m in read.members], [run.bob], "the members a read lists")
    expect_equal(read.feed.member_count, 1, "member_count")
    # (A server call reads any feed: who else may read it is the Swift suite's to check.)
    pending = run.client.feeds.query_feed_members(room, club, filter={"status": "pending"}).data
    expect_equal([m.user.id for m in pending.members], [carol], "the pending invite")

    accepted = run.client.feeds.accept_feed_member_invite(club, room, user_id=carol).data
    check_decoded(accepted)
    expect_equal(accepted.member.status, "member", "the invite accepted")
    listed = run.client.feeds.query_feed_members(room, club, filter={"status": "member"}).data
    check_decoded(listed)
    expect_equal(sorted(m.user.id for m in listed.members), sorted([run.bob, carol]), "the members queried")

    removed = run.client.feeds.update_feed_members(
        room, club, operation="remove", members=[FeedMemberRequest(user_id=run.bob)]
    ).data
    expect_equal(removed.removed_ids, [run.bob], "removed_ids")
    expect_equal(feed.get_or_create(user_id=run.alice).data.feed.member_count, 1, "member_count after the removal")
    expect_api_error(lambda: run.client.feeds.accept_feed_member_invite(club, room, user_id=run.bob), 409, 4)


@step
def member_invite_rejected(run):
    room = f"room{run.suffix}"
    dave = run.alice.replace("alice", "dave")
    run.client.feeds.update_feed_members(
        room, "club", operation="upsert", members=[FeedMemberRequest(user_id=dave, invite=True)]
    )
    rejected = run.client.feeds.reject_feed_member_invite(room, "club", user_id=dave).data
    check_decoded(rejected)
    expect_equal((rejected.member.user.id, rejected.member.status), (dave, "rejected"), "the invite rejected")
    assert rejected.member.invite_rejected_at is not None, "invite_rejected_at of a rejected invite"


@step
def membership_levels_give_tagged_activities(run):
    """Stream's docs' Patreon case: a level's members read the tagged post, other readers a preview."""
    premium = f"premium{run.suffix}"
    made = run.client.feeds.create_membership_level(
        id=premium, name="Premium", priority=100, tags=[premium], custom={"creator_id": run.alice}
    ).data
    check_decoded(made)
    expect_equal((made.membership_level.id, made.membership_level.tags), (premium, [premium]), "the level made")
    near_now(made.membership_level.created_at, "a level's created_at")
    queried = run.client.feeds.query_membership_levels(
        filter={"id": {"$in": [premium]}}, sort=[SortParamRequest(field="priority", direction=-1)]
    ).data
    check_decoded(queried)
    expect_equal([level.id for level in queried.membership_levels], [premium], "the levels queried")
    updated = run.client.feeds.update_membership_level(premium, name="Gold").data
    check_decoded(updated)
    expect_equal((updated.membership_level.name, updated.membership_level.priority), ("Gold", 100), "the level updated")

    changed = run.client.feeds.update_feed_members(
        "user", run.alice, operation="upsert", members=[FeedMemberRequest(user_id=run.bob, membership_level=premium)]
    ).data
    check_decoded(changed)
    bob = [m for m in changed.added + changed.updated if m.user.id == run.bob][0]
    expect_equal(bob.membership_level.id, premium, "the member's level")
    post = run.client.feeds.add_activity(
        type="post", feeds=[run.alice_feed], text="premium only", visibility="tag", visibility_tag=premium,
        user_id=run.alice,
    ).data.activity

    def as_user(user):
        return Stream(api_key=run.api_key, token=run.client.create_token(user), base_url=run.base_url).feeds

    full = as_user(run.bob).get_activity(id=post.id).data
    check_decoded(full)
    expect_equal((full.activity.preview, full.activity.text), (False, "premium only"), "the member's read")
    carol = run.alice.replace("alice", "carol")
    preview = as_user(carol).get_activity(id=post.id).data
    check_decoded(preview)
    expect_equal((preview.activity.preview, preview.activity.text), (True, None), "another reader's preview")

    deleted = run.client.feeds.delete_membership_level(premium).data
    check_decoded(deleted)
    expect_equal(as_user(run.bob).get_activity(id=post.id).data.activity.preview, True, "the read once the level is gone")
    expect_api_error(lambda: run.client.feeds.delete_membership_level(premium), 404, 16)
