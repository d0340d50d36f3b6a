"""Steps: stories as Stream's sample apps use them: posts with `expires_at` to story:<author>,
the stories:<reader> timeline following them, grouped per author, and mark_watched."""

from datetime import datetime, timedelta, timezone

from support import check_decoded, expect_equal, step


@step
def stories_grouped_per_author_and_watched(run):
    expires = datetime.now(timezone.utc) + timedelta(hours=24)
    # AddActivity takes expires_at as a string in this SDK (UpdateActivity takes a datetime).
    posted = [
        run.client.feeds.add_activity(
            type="story", feeds=[f"story:{run.bob}"], text=text, user_id=run.bob, expires_at=expires.isoformat()
        ).data.activity
        for text in ("morning", "evening")
    ]
    near = posted[0].expires_at
    assert near is not None and abs((near - expires).total_seconds()) < 1, f"expires_at {near}, sent {expires}"
    timeline = run.client.feeds.feed("stories", run.alice)
    timeline.get_or_create(user_id=run.alice)
    run.client.feeds.follow(source=f"stories:{run.alice}", target=f"story:{run.bob}")

    data = timeline.get_or_create(user_id=run.alice).data
    check_decoded(data)
    groups = [group for group in data.aggregated_activities if group.group == run.bob]
    expect_equal(len(groups), 1, "bob's group on alice's stories timeline")
    expect_equal([a.id for a in groups[0].activities], [a.id for a in posted], "bob's stories, oldest first")
    expect_equal((groups[0].activity_count, groups[0].is_watched), (2, False), "the group's count and is_watched")

    check_decoded(timeline.mark_activity(mark_watched=[posted[0].id], user_id=run.alice).data)
    group = [g for g in timeline.get_or_create(user_id=run.alice).data.aggregated_activities if g.group == run.bob][0]
    expect_equal([a.is_watched for a in group.activities], [True, False], "is_watched after mark_watched")
    timeline.mark_activity(mark_watched=[posted[1].id], user_id=run.alice)
    group = [g for g in timeline.get_or_create(user_id=run.alice).data.aggregated_activities if g.group == run.bob][0]
    expect_equal(group.is_watched, True, "the group watched once all its stories are")
