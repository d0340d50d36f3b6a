"""Steps: feed views as Stream's ranked-feed docs make them (a popular selector and a decay
ranking), kept, listed, changed and deleted, and a feed read through one."""

from getstream.models import ActivitySelectorConfig, DecayFunctionConfig, RankingConfig

from support import check_decoded, expect_equal, step


@step
def feed_view_made_listed_changed_and_deleted(run):
    view_id = f"hot{run.suffix}"
    ranking = RankingConfig(
        type="expression",
        score="decay_linear(time) * popularity ^ 0.5",
        defaults={"popularity": 1},
        functions={"decay_linear": DecayFunctionConfig(origin="now", scale="12h", offset="1h", decay="0.3")},
    )
    selectors = [ActivitySelectorConfig(type="popular", cutoff_window="3d", min_popularity=1)]
    made = run.client.feeds.create_feed_view(view_id, activity_selectors=selectors, ranking=ranking).data
    check_decoded(made)
    expect_equal(made.feed_view.id, view_id, "the view made")
    expect_equal(made.feed_view.activity_selectors[0].cutoff_window, "3d", "its selector's window")
    expect_equal(made.feed_view.ranking.score, ranking.score, "its score")
    got = run.client.feeds.get_feed_view(view_id).data
    check_decoded(got)
    expect_equal(got.feed_view.activity_selectors[0].type, "popular", "the view read back")
    again = run.client.feeds.get_or_create_feed_view(view_id, activity_selectors=selectors).data
    check_decoded(again)
    expect_equal(again.was_created, False, "an existing view returned as it is")
    listed = run.client.feeds.list_feed_views().data
    check_decoded(listed)
    assert view_id in listed.views, f"{view_id} not among {list(listed.views)}"
    changed = run.client.feeds.update_feed_view(
        view_id, ranking=RankingConfig(type="expression", score="reaction_count * 2 + comment_count")
    ).data
    check_decoded(changed)
    expect_equal(changed.feed_view.ranking.score, "reaction_count * 2 + comment_count", "the changed score")
    check_decoded(run.client.feeds.delete_feed_view(view_id).data)


@step
def feed_read_through_a_view(run):
    view_id = f"mine{run.suffix}"
    run.client.feeds.create_feed_view(
        view_id,
        activity_selectors=[ActivitySelectorConfig(type="current_feed")],
        ranking=RankingConfig(type="expression", score="reaction_count"),
    )
    feed = run.client.feeds.feed("user", run.alice)
    feed.get_or_create(user_id=run.alice)
    post = run.client.feeds.add_activity
    quiet = post(type="post", feeds=[run.alice_feed], text="quiet", user_id=run.alice).data.activity
    liked = post(type="post", feeds=[run.alice_feed], text="liked", user_id=run.alice).data.activity
    run.client.feeds.add_activity_reaction(liked.id, type="like", user_id=run.bob)
    read = feed.get_or_create(user_id=run.bob, view=view_id, limit=2).data
    check_decoded(read)
    ids = [activity.id for activity in read.activities]
    expect_equal(ids[:1], [liked.id], "the most reacted first")
    assert quiet.id in ids or read.next, "the quiet post on this page or the next"
    run.client.feeds.delete_feed_view(view_id)


@step
def feed_group_ranked(run):
    """A group's ranking orders every read of its feeds, as Stream's ranked groups do."""
    group = f"ranked{run.suffix}"
    made = run.client.feeds.create_feed_group(
        id=group, ranking=RankingConfig(type="expression", score="reaction_count * 2 + comment_count")
    ).data
    check_decoded(made)
    expect_equal(made.feed_group.ranking.score, "reaction_count * 2 + comment_count", "the group's score")
    feed = run.client.feeds.feed(group, "main")
    feed.get_or_create(user_id=run.alice)
    post = run.client.feeds.add_activity
    first = post(type="post", feeds=[f"{group}:main"], text="first", user_id=run.alice).data.activity
    post(type="post", feeds=[f"{group}:main"], text="second", user_id=run.alice)
    run.client.feeds.add_activity_reaction(first.id, type="like", user_id=run.bob)
    read = feed.get_or_create(user_id=run.bob).data
    check_decoded(read)
    expect_equal(read.activities[0].id, first.id, "the reacted-to post first, though older")
