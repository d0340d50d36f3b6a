"""Steps: notification feeds, as Stream's sample apps use them: create_notification_activity on a
reaction, a comment and a follow, the notification feed's groups and status, MarkActivity."""

from support import check_decoded, expect_api_error, expect_equal, near_now, step


def bell(run, user):
    data = run.client.feeds.feed("notification", user).get_or_create(user_id=user).data
    check_decoded(data)
    return data


@step
def notification_on_a_like_and_a_comment(run):
    note = run.notes[0]
    liked = run.client.feeds.add_activity_reaction(
        note, type="fire", user_id=run.alice, create_notification_activity=True, copy_custom_to_notification=True,
        custom={"emoji": "🔥"},
    ).data
    check_decoded(liked)
    run.client.feeds.add_comment(
        comment="lovely", object_id=note, object_type="activity", user_id=run.alice, create_notification_activity=True
    )
    data = bell(run, run.bob)
    kinds = {group.activities[0].type: group for group in data.aggregated_activities}
    expect_equal(sorted(kinds), ["comment", "reaction"], "bob's notification kinds")
    reaction = kinds["reaction"]
    expect_equal((reaction.activity_count, reaction.user_count), (1, 1), "the like group's counts")
    expect_equal(reaction.group.split("_")[:2], [note, "reaction"], "the like group's id")
    first = reaction.activities[0]
    expect_equal(first.user.id, run.alice, "who liked")
    expect_equal(first.notification_context.target.id, note, "notification_context.target.id")
    expect_equal(first.notification_context.trigger.type, "reaction", "notification_context.trigger.type")
    expect_equal(first.custom.get("emoji"), "🔥", "custom copied to the notification")
    near_now(reaction.updated_at, "the group's updated_at")
    expect_equal(reaction.is_read, False, "is_read of a new group")
    expect_equal((data.notification_status.unread, data.notification_status.unseen), (2, 2), "unread, unseen")
    expect_equal(bell(run, run.alice).aggregated_activities, [], "alice's own notifications")


@step
def notification_on_a_follow(run):
    run.client.feeds.feed("user", run.alice).get_or_create(user_id=run.alice)
    run.client.feeds.follow(source=run.alice_feed, target=run.bob_feed, create_notification_activity=True)
    groups = bell(run, run.bob).aggregated_activities
    follow = [group for group in groups if group.activities[0].type == "follow"]
    expect_equal(len(follow), 1, "bob's follow groups")
    expect_equal(follow[0].activities[0].notification_context.target.id, run.bob, "the followed user")
    run.client.feeds.unfollow(run.alice_feed, run.bob_feed)
    groups = bell(run, run.bob).aggregated_activities
    expect_equal([g for g in groups if g.activities[0].type == "follow"], [], "follow groups after the unfollow")


@step
def notifications_marked_read_and_seen(run):
    feed = run.client.feeds.feed("notification", run.bob)
    group = bell(run, run.bob).aggregated_activities[0].group
    check_decoded(feed.mark_activity(mark_read=[group], user_id=run.bob).data)
    data = bell(run, run.bob)
    expect_equal(data.notification_status.read_activities, [group], "read_activities after mark_read")
    expect_equal([g.is_read for g in data.aggregated_activities if g.group == group], [True], "is_read after mark_read")
    feed.mark_activity(mark_all_read=True, mark_all_seen=True, user_id=run.bob)
    status = bell(run, run.bob).notification_status
    expect_equal((status.unread, status.unseen), (0, 0), "unread, unseen after marking all")
    near_now(status.last_read_at, "last_read_at")
    expect_api_error(
        lambda: run.client.feeds.feed("notification", run.bob).mark_activity(mark_all_read=True, user_id=run.alice),
        403, 17,
    )
