"""Steps: feed members as Stream's apps manage them: update_feed_members (upsert with an invite,
remove), the invitee's answer, query_feed_members, and the members a feed read lists."""

from getstream.models import FeedInput, FeedMemberRequest

from support import check_decoded, expect_api_error, expect_equal, step


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
