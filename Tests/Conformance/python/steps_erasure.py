"""Steps: a person's deletion (DeleteUsers, DeleteFeedUserData), restoration (RestoreUsers) and export
(ExportFeedUserData, ExportUsers), GetTask as the SDK's wait_for_task polls it, and the push
settings (UpdatePushNotificationPreferences)."""

import json
import time
from datetime import datetime, timezone

from getstream import Stream
from getstream.models import FeedsPreferences, PushPreferenceInput, QueryUsersPayload, UserRequest

from support import check_decoded, expect, expect_api_error, expect_equal, fetch, near_now, step


def person(run, name):
    """A new user with one post on their own feed."""
    user = f"{run.alice}-{name}"
    run.client.update_users(users={user: UserRequest(id=user, name=name.title())})
    post = run.client.feeds.add_activity(type="post", feeds=[f"user:{user}"], text=f"{name}'s", user_id=user).data.activity
    return user, post


def finished(run, task_id):
    """The task once done, through the SDK's own poller; its fields checked."""
    task = run.client.wait_for_task(task_id, poll_interval=0.1, timeout=120).data
    check_decoded(task)
    expect_equal((task.task_id, task.status, task.error), (task_id, "completed", None), "the task")
    near_now(task.created_at, "task.created_at")
    near_now(task.updated_at, "task.updated_at")
    return task


def eventually(what, condition, seconds=60):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {seconds} s")
        time.sleep(0.1)


@step
def users_deleted_hard_leave_nothing(run):
    # Everything of theirs goes, and what others see is counted without it.
    user, post = person(run, "gone")
    target = run.client.feeds.add_activity(type="post", feeds=[run.alice_feed], text="like me", user_id=run.alice).data.activity
    run.client.feeds.add_activity_reaction(activity_id=target.id, type="like", user_id=user)
    expect_equal(run.client.feeds.get_activity(id=target.id).data.activity.reaction_count, 1, "the like before")
    data = run.client.delete_users(user_ids=[user], user="hard").data
    check_decoded(data)
    task = finished(run, data.task_id)
    counted = (task.result["users_done"], task.result["deleted_activities"], task.result["deleted_reactions"])
    expect_equal(counted, (1, 1, 1), "what the task counted")
    expect_api_error(lambda: run.client.feeds.get_activity(id=post.id), 404, 16)
    expect_equal(run.client.feeds.get_activity(id=target.id).data.activity.reaction_count, 0, "the like after")
    found = run.client.query_users(QueryUsersPayload(filter_conditions={"id": user})).data.users
    expect_equal(found, [], "the user after a hard delete")


@step
def users_soft_deleted_then_restored(run):
    # A soft-deleted account is refused and its posts hidden; RestoreUsers brings both back.
    user, post = person(run, "away")
    as_user = Stream(api_key=run.api_key, token=run.client.create_token(user), base_url=run.base_url)
    finished(run, run.client.delete_users(user_ids=[user], user="soft", messages="soft").data.task_id)
    expect_api_error(lambda: as_user.feeds.query_activities(limit=1), 403, 17)
    expect_api_error(lambda: run.client.feeds.get_activity(id=post.id), 404, 16)
    check_decoded(run.client.restore_users(user_ids=[user]).data)

    def back():
        try:
            return run.client.feeds.get_activity(id=post.id).data.activity.text == "away's"
        except Exception:
            return False

    eventually("the post back", back)

    def accepted():
        try:
            as_user.feeds.query_activities(limit=1)
            return True
        except Exception:
            return False

    eventually("the token accepted again", accepted)
    expect_api_error(lambda: run.client.restore_users(user_ids=[user]), 400, 4)


@step
def feed_user_data_deleted_account_kept(run):
    # DeleteFeedUserData takes their Feeds data; the account stays and posts again.
    user, post = person(run, "quiet")
    data = run.client.feeds.delete_feed_user_data(user_id=user, hard_delete=True).data
    check_decoded(data)
    task = finished(run, data.task_id)
    expect(task.result["deleted_feeds"] >= 1, f"feeds deleted: {task.result}")
    expect_api_error(lambda: run.client.feeds.get_activity(id=post.id), 404, 16)
    found = run.client.query_users(QueryUsersPayload(filter_conditions={"id": user})).data.users
    expect_equal([found_user.id for found_user in found], [user], "the account after")
    again = run.client.feeds.add_activity(type="post", feeds=[f"user:{user}"], text="back", user_id=user).data.activity
    expect_equal(again.user.id, user, "a post after")


@step
def user_deletions_refused(run):
    # Users cannot delete anyone; Chat's options and unknown users are refused with nothing queued.
    user, _ = person(run, "kept")
    as_user = Stream(api_key=run.api_key, token=run.client.create_token(user), base_url=run.base_url)
    expect_api_error(lambda: as_user.delete_users(user_ids=[run.bob], user="hard"), 403, 17)
    expect_api_error(lambda: as_user.feeds.delete_feed_user_data(user_id=run.bob), 403, 17)
    expect_api_error(lambda: run.client.delete_users(user_ids=[user], user="soft", conversations="hard"), 400, 4)
    expect_api_error(lambda: run.client.delete_users(user_ids=[user, f"{user}-nobody"], user="hard"), 404, 16)
    expect_api_error(lambda: run.client.restore_users(user_ids=[user]), 400, 4)
    check_decoded(as_user.feeds.query_activities(limit=1).data)


@step
def feed_user_data_exported(run):
    # The export is a task; its result.url serves JSON with everything of theirs.
    user, post = person(run, "exported")
    data = run.client.feeds.export_feed_user_data(user_id=user).data
    check_decoded(data)
    task = finished(run, data.task_id)
    export = json.loads(fetch(task.result["url"]))
    mine = export["users"][0]
    expect_equal((mine["user_id"], [activity["id"] for activity in mine["activities"]]), (user, [post.id]), "the export")
    task = finished(run, run.client.export_users(user_ids=[user, run.bob]).data.task_id)
    exported = [entry["user_id"] for entry in json.loads(fetch(task.result["url"]))["users"]]
    expect_equal(exported, [user, run.bob], "the users of ExportUsers")
    expect_api_error(lambda: run.client.export_users(user_ids=[f"{user}-nobody"]), 404, 16)


@step
def push_preferences_updated(run):
    # A user's own push settings, as the SDK sends them (disabled_until as ISO 8601); the reply
    # decoded into PushPreferencesResponse.
    user, _ = person(run, "pushed")
    as_user = Stream(api_key=run.api_key, token=run.client.create_token(user), base_url=run.base_url)
    until = datetime(2099, 1, 1, tzinfo=timezone.utc)
    data = as_user.update_push_notification_preferences(preferences=[
        PushPreferenceInput(feeds_level="all", feeds_preferences=FeedsPreferences(reaction="none"), disabled_until=until)
    ]).data
    check_decoded(data)
    mine = data.user_preferences[user]
    expect_equal((mine.feeds_level, mine.feeds_preferences.reaction, mine.feeds_preferences.comment),
                 ("all", "none", "all"), "the settings")
    expect_equal(mine.disabled_until, until, "disabled_until")
    data = run.client.update_push_notification_preferences(
        preferences=[PushPreferenceInput(user_id=user, remove_disable=True)]).data
    expect_equal((data.user_preferences[user].disabled_until, data.user_preferences[user].feeds_preferences.reaction),
                 (None, "none"), "after remove_disable")
    expect_api_error(lambda: as_user.update_push_notification_preferences(
        preferences=[PushPreferenceInput(user_id=run.bob, feeds_level="none")]), 403, 17)
    expect_api_error(lambda: as_user.update_push_notification_preferences(
        preferences=[PushPreferenceInput(chat_level="all")]), 400, 4)
