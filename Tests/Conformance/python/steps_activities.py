"""Steps: activities with attachments, reads, queries with pagination, updates, deletes, restores."""

from datetime import datetime, timedelta, timezone

from getstream.models import ActivityRequest, Attachment, SortParamRequest, UpdateActivityPartialChangeRequest

from support import check_activity, check_decoded, expect, expect_api_error, expect_equal, fetch, page_through, step


@step
def activity_add_with_attachments(run):
    response = run.client.feeds.add_activity(
        type="post",
        feeds=[run.alice_feed],
        text="Hello with files",
        user_id=run.alice,
        custom={"mood": "sunny"},
        attachments=[
            Attachment(custom={"caption": "a gradient"}, type="image", image_url=run.urls["image"]),
            # Without custom: the SDK's model needs the argument, None leaves it off the wire.
            Attachment(custom=None, type="file", asset_url=run.urls["file"], title="notes.txt"),
        ],
    )
    check_decoded(response.data)
    activity = response.data.activity
    check_activity(activity, "the activity")
    expect_equal((activity.type, activity.text), ("post", "Hello with files"), "type and text")
    expect_equal(activity.user.id, run.alice, "user id")
    expect_equal(activity.feeds, [run.alice_feed], "feeds")
    expect_equal(activity.custom, {"mood": "sunny"}, "custom")
    image, file = activity.attachments
    expect_equal(image.custom, {"caption": "a gradient"}, "the image attachment's custom")
    expect_equal(file.custom, {}, "the file attachment's custom (none sent)")
    expect_equal((image.original_width, image.original_height), (8, 6), "the image's size")
    expect_equal(fetch(image.image_url), run.bytes["gradient.png"], "bytes at the attachment's image_url")
    expect_equal(fetch(file.asset_url), run.bytes["notes.txt"], "bytes at the attachment's asset_url")
    run.activities["with files"] = activity


@step
def activity_add_plain(run):
    response = run.client.feeds.add_activity(type="post", feeds=[run.alice_feed], text="Just text", user_id=run.alice)
    check_decoded(response.data)
    activity = response.data.activity
    check_activity(activity, "the activity")
    expect_equal(activity.text, "Just text", "text")
    expect_equal((activity.custom, activity.attachments), ({}, []), "custom and attachments")
    run.activities["plain"] = activity


@step
def activity_get(run):
    added = run.activities["with files"]
    response = run.client.feeds.get_activity(id=added.id)
    check_decoded(response.data)
    activity = response.data.activity
    expect_equal((activity.id, activity.text), (added.id, added.text), "id and text")
    expect_equal(activity.created_at, added.created_at, "created_at, read back")
    expect_equal(fetch(activity.attachments[0].image_url), run.bytes["gradient.png"], "bytes at image_url")
    expect_equal(fetch(activity.attachments[1].asset_url), run.bytes["notes.txt"], "bytes at asset_url")


@step
def activities_query_pages(run):
    # Five notes in bob's feed, newest first: three pages of at most two, each once.
    for number in range(5):
        note = run.client.feeds.add_activity(type="note", feeds=[run.bob_feed], text=f"note {number}", user_id=run.bob)
        run.notes.insert(0, note.data.activity.id)
    pages = page_through(
        lambda cursor: run.client.feeds.query_activities(
            filter={"feeds": {"$in": [run.bob_feed]}}, limit=2, next=cursor
        ).data
    )
    expect_equal([len(page) for page in pages], [2, 2, 1], "page sizes")
    expect_equal(sum(pages, []), run.notes, "ids over all pages, newest first")


@step
def activities_query_by_user_and_type(run):
    data = run.client.feeds.query_activities(filter={"user_id": run.bob, "type": "note"}, limit=10).data
    check_decoded(data)
    expect_equal([activity.id for activity in data.activities], run.notes, "bob's notes")
    for activity in data.activities:
        check_activity(activity, f"activity {activity.id}")


@step
def activities_query_by_time(run):
    # Times in a filter as an app sends them: an RFC 3339 string, or Stream's nanoseconds.
    an_hour_ago = (datetime.now(timezone.utc) - timedelta(hours=1)).isoformat()
    tomorrow_ns = int((datetime.now(timezone.utc) + timedelta(days=1)).timestamp()) * 10**9
    data = run.client.feeds.query_activities(
        filter={"feeds": {"$in": [run.bob_feed]}, "created_at": {"$gte": an_hour_ago, "$lt": tomorrow_ns}}, limit=10
    ).data
    check_decoded(data)
    expect_equal([activity.id for activity in data.activities], run.notes, "bob's notes of the last hour")


@step
def activity_shared(run):
    # Bob shares alice's post: the share carries it, and it counts the share until it goes.
    original = run.activities["plain"]
    share = run.client.feeds.add_activity(
        type="post", feeds=[run.bob_feed], text="look at this", user_id=run.bob, parent_id=original.id
    ).data.activity
    check_activity(share, "the share")
    expect_equal((share.parent.id, share.parent.text), (original.id, original.text), "the share's parent")
    expect_equal(run.client.feeds.get_activity(id=original.id).data.activity.share_count, 1, "share_count")
    data = run.client.feeds.query_activities(filter={"id": share.id}, user_id=run.alice).data
    check_decoded(data)
    expect_equal(data.activities[0].parent.share_count, 1, "the parent's share_count, read with the share")
    run.client.feeds.delete_activity(share.id, hard_delete=True)  # later steps count bob's feed
    expect_equal(run.client.feeds.get_activity(id=original.id).data.activity.share_count, 0, "share_count after")


@step
def activity_mentions(run):
    # The users an activity names come back as users; those who do not exist are left out.
    added = run.client.feeds.add_activity(
        type="post", feeds=[run.alice_feed], text="hi @bob", user_id=run.alice, mentioned_user_ids=[run.bob, "nobody-at-all"]
    ).data.activity
    check_activity(added, "the activity")
    expect_equal([user.id for user in added.mentioned_users], [run.bob], "mentioned_users")
    patched = run.client.feeds.update_activity_partial(id=added.id, unset=["mentioned_user_ids"]).data.activity
    expect_equal(patched.mentioned_users, [], "mentioned_users after unset")
    run.client.feeds.delete_activity(added.id, hard_delete=True)  # later steps count alice's feed


@step
def activities_query_sorted(run):
    # Three posts liked 1, 2 and 0 times, sorted by reaction_count both ways, paged by next.
    author = f"{run.alice}-sorted"
    feed = f"user:{author}"
    ids = []
    for likes in (1, 2, 0):
        post = run.client.feeds.add_activity(type="post", feeds=[feed], text=f"{likes} likes", user_id=author).data.activity
        for liker in (run.alice, run.bob)[:likes]:
            run.client.feeds.add_activity_reaction(post.id, type="like", user_id=liker)
        ids.append(post.id)
    for direction, expected in ((-1, [ids[1], ids[0], ids[2]]), (1, [ids[2], ids[0], ids[1]])):
        pages = page_through(
            lambda cursor: run.client.feeds.query_activities(
                filter={"feeds": {"$in": [feed]}},
                sort=[SortParamRequest(field="reaction_count", direction=direction)],
                limit=2,
                next=cursor,
            ).data
        )
        expect_equal(sum(pages, []), expected, f"ids by reaction_count, direction {direction}")
    popular = run.client.feeds.query_activities(
        filter={"feeds": {"$in": [feed]}}, sort=[SortParamRequest(field="popularity", direction=-1)], limit=1
    ).data
    expect_equal((popular.activities[0].id, popular.activities[0].popularity), (ids[1], 2), "the most popular")
    run.client.feeds.delete_activities(ids=ids, hard_delete=True)


@step
def activity_update_full(run):
    added = run.activities["with files"]
    response = run.client.feeds.update_activity(
        id=added.id,
        text="Edited",
        custom={"mood": "rainy", "extra": 1},
        # A datetime argument: the SDK sends it as isoformat(), `+00:00` rather than `Z`.
        expires_at=datetime.now(timezone.utc) + timedelta(days=30),
        # The URL a read returned goes back as it came: the activity holds that upload.
        attachments=[Attachment(custom={}, type="image", image_url=added.attachments[0].image_url)],
    )
    check_decoded(response.data)
    activity = response.data.activity
    check_activity(activity, "the updated activity")
    expect_equal((activity.id, activity.text), (added.id, "Edited"), "id and text")
    expect_equal(activity.custom, {"mood": "rainy", "extra": 1}, "custom")
    expect_equal(len(activity.attachments), 1, "attachments")
    expect_equal(fetch(activity.attachments[0].image_url), run.bytes["gradient.png"], "bytes at image_url")
    assert activity.updated_at >= activity.created_at, "updated_at is before created_at"


@step
def activity_update_partial(run):
    added = run.activities["with files"]
    response = run.client.feeds.update_activity_partial(
        id=added.id, set={"text": "Patched", "custom.mood": "foggy"}, unset=["custom.extra"]
    )
    check_decoded(response.data)
    activity = response.data.activity
    check_activity(activity, "the patched activity")
    expect_equal(activity.text, "Patched", "text")
    expect_equal(activity.custom, {"mood": "foggy"}, "custom")
    expect_equal(run.client.feeds.get_activity(id=added.id).data.activity.text, "Patched", "text read back")


@step
def activities_update_partial_batch(run):
    ids = [
        run.client.feeds.add_activity(type="post", feeds=[run.alice_feed], text=text, user_id=run.alice).data.activity.id
        for text in ("draft one", "draft two")
    ]
    data = run.client.feeds.update_activities_partial_batch(
        changes=[
            UpdateActivityPartialChangeRequest(activity_id=ids[1], set={"text": "final two"}),
            UpdateActivityPartialChangeRequest(activity_id=ids[0], set={"custom.stage": "done"}),
            UpdateActivityPartialChangeRequest(activity_id="no-such-activity", set={"text": "skipped"}),
        ]
    ).data
    check_decoded(data)
    expect_equal([a.id for a in data.activities], [ids[1], ids[0]], "the activities updated, in order, without the missing one")
    expect_equal((data.activities[0].text, data.activities[1].custom), ("final two", {"stage": "done"}), "their changes")
    check_decoded(run.client.feeds.delete_activities(ids=ids, hard_delete=True).data)


@step
def activities_upserted(run):
    existing = run.client.feeds.add_activity(type="post", feeds=[run.alice_feed], text="to be rewritten", user_id=run.alice)
    fresh = f"upserted-{run.suffix}"
    data = run.client.feeds.upsert_activities(
        activities=[
            ActivityRequest(id=fresh, type="post", feeds=[run.alice_feed], text="new by upsert", user_id=run.alice),
            ActivityRequest(id=existing.data.activity.id, type="post", feeds=[run.alice_feed], text="rewritten", user_id=run.alice),
        ]
    ).data
    check_decoded(data)
    expect_equal([(a.id, a.text) for a in data.activities], [(fresh, "new by upsert"), (existing.data.activity.id, "rewritten")], "the upserted")
    expect_equal(run.client.feeds.get_activity(id=fresh).data.activity.text, "new by upsert", "the new one read back")
    check_decoded(run.client.feeds.delete_activities(ids=[fresh, existing.data.activity.id], hard_delete=True).data)


@step
def activity_hidden_by_feedback(run):
    post = run.client.feeds.add_activity(type="post", feeds=[run.alice_feed], text="not for bob", user_id=run.alice).data.activity
    data = run.client.feeds.activity_feedback(post.id, hide=True, user_id=run.bob).data
    check_decoded(data)
    expect_equal(data.activity_id, post.id, "activity_id")
    page = run.client.feeds.feed("user", run.alice).get_or_create(user_id=run.bob).data
    expect(post.id not in [a.id for a in page.activities], "the hidden activity is off bob's page of alice's feed")
    found = run.client.feeds.query_activities(filter={"user_id": run.alice}, user_id=run.bob, limit=5).data
    expect_equal([a.hidden for a in found.activities if a.id == post.id], [True], "hidden, as bob queries it")
    expect_equal(run.client.feeds.get_activity(id=post.id, user_id=run.bob).data.activity.hidden, True, "hidden, read for bob by id")
    expect_equal(run.client.feeds.get_activity(id=post.id).data.activity.hidden, False, "not hidden for the server itself")
    check_decoded(run.client.feeds.activity_feedback(post.id, hide=False, user_id=run.bob).data)
    page = run.client.feeds.feed("user", run.alice).get_or_create(user_id=run.bob).data
    expect(post.id in [a.id for a in page.activities], "back on bob's page once shown again")
    check_decoded(run.client.feeds.delete_activity(id=post.id, hard_delete=True).data)


@step
def activity_delete(run):
    plain = run.activities["plain"]
    check_decoded(run.client.feeds.delete_activity(id=plain.id).data)
    expect_api_error(lambda: run.client.feeds.get_activity(id=plain.id), 404, 16)
    doomed = run.client.feeds.add_activity(type="post", feeds=[run.alice_feed], text="Gone soon", user_id=run.alice)
    check_decoded(run.client.feeds.delete_activity(id=doomed.data.activity.id, hard_delete=True).data)
    expect_api_error(lambda: run.client.feeds.get_activity(id=doomed.data.activity.id), 404, 16)


@step
def activities_delete_batch(run):
    ids = [
        run.client.feeds.add_activity(
            type="post", feeds=[run.alice_feed], text=text, user_id=run.alice
        ).data.activity.id
        for text in ("first to go", "second to go")
    ]
    data = run.client.feeds.delete_activities(ids=ids).data
    check_decoded(data)
    expect_equal(sorted(data.deleted_ids), sorted(ids), "deleted_ids")
    for id in ids:
        expect_api_error(lambda: run.client.feeds.get_activity(id=id), 404, 16)


@step
def activity_deleted_and_restored(run):
    post = run.client.feeds.add_activity(type="post", feeds=[run.alice_feed], text="undo me", user_id=run.alice).data.activity
    run.client.feeds.delete_activity(post.id)
    restored = run.client.feeds.restore_activity(post.id, user_id=run.alice).data
    check_decoded(restored)
    expect_equal((restored.activity.id, restored.activity.text, restored.activity.deleted_at), (post.id, "undo me", None),
                 "the restored activity")
    page = run.client.feeds.feed("user", run.alice).get_or_create(user_id=run.alice).data
    expect_equal(post.id in [a.id for a in page.activities], True, "back in its feed")
    run.client.feeds.delete_activity(post.id, hard_delete=True)  # later steps count alice's feed
