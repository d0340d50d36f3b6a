"""Steps: users (UpdateUsers, QueryUsers) and the app settings (GetApp, UpdateApp)."""

from getstream import Stream
from getstream.models import FileUploadConfig, QueryUsersPayload, SortParamRequest, UpdateUserPartialRequest, UserRequest

from support import check_decoded, expect, expect_api_error, expect_equal, near_now, step


def check_user(user, expected_id, expected_name):
    expect_equal(user.id, expected_id, "user id")
    expect_equal(user.name, expected_name, f"name of {expected_id}")
    near_now(user.created_at, f"{expected_id}.created_at")
    near_now(user.updated_at, f"{expected_id}.updated_at")


@step
def users_update(run):
    response = run.client.update_users(
        users={
            run.alice: UserRequest(
                id=run.alice,
                name="Alice Liddell",
                image="https://example.com/alice.png",
                language="en",
                role="user",
                custom={"city": "Oxford"},
            ),
            run.bob: UserRequest(id=run.bob, name="Bob Cratchit"),
        }
    )
    check_decoded(response.data)
    users = response.data.users
    expect_equal(sorted(users), sorted([run.alice, run.bob]), "ids of the updated users")
    check_user(users[run.alice], run.alice, "Alice Liddell")
    check_user(users[run.bob], run.bob, "Bob Cratchit")
    alice = users[run.alice]
    expect_equal(alice.custom, {"city": "Oxford"}, "alice's custom")
    expect_equal((alice.image, alice.language, alice.role), ("https://example.com/alice.png", "en", "user"), "profile")


@step
def users_query_by_id(run):
    payload = QueryUsersPayload(
        filter_conditions={"id": {"$in": [run.bob, run.alice]}}, sort=[SortParamRequest(field="id", direction=1)]
    )
    response = run.client.query_users(payload)
    check_decoded(response.data)
    expect_equal([user.id for user in response.data.users], [run.alice, run.bob], "ids found")
    check_user(response.data.users[0], run.alice, "Alice Liddell")
    expect_equal(response.data.users[0].custom, {"city": "Oxford"}, "alice's custom")


@step
def users_query_autocomplete_and_offset(run):
    found = run.client.query_users(QueryUsersPayload(filter_conditions={"name": {"$autocomplete": "alic"}})).data
    check_decoded(found)
    expect_equal([user.id for user in found.users], [run.alice], "ids whose name starts with alic")
    payload = QueryUsersPayload(
        filter_conditions={"id": {"$in": [run.alice, run.bob]}},
        sort=[SortParamRequest(field="id", direction=1)],
        limit=1,
        offset=1,
    )
    expect_equal([user.id for user in run.client.query_users(payload).data.users], [run.bob], "second page of one")


# App settings


@step
def users_updated_partially(run):
    patch = UpdateUserPartialRequest(id=run.bob, set={"name": "Bob C.", "city": "London"}, unset=["image"])
    response = run.client.update_users_partial(users=[patch])
    check_decoded(response.data)
    bob = response.data.users[run.bob]
    check_user(bob, run.bob, "Bob C.")
    expect_equal(bob.custom, {"city": "London"}, "bob's custom")
    # Alice's fields, set in users_update, stay as they were.
    alice = run.client.update_users_partial(users=[UpdateUserPartialRequest(id=run.alice, unset=["city"])]).data.users[run.alice]
    expect_equal((alice.name, alice.custom), ("Alice Liddell", {}), "alice once city is unset")
    run.client.update_users_partial(users=[UpdateUserPartialRequest(id=run.alice, set={"city": "Oxford"})])


@step
def users_blocked_listed_and_unblocked(run):
    blocked = run.client.block_users(blocked_user_id=run.bob, user_id=run.alice).data
    check_decoded(blocked)
    expect_equal((blocked.blocked_by_user_id, blocked.blocked_user_id), (run.alice, run.bob), "who blocked whom")
    near_now(blocked.created_at, "the block's created_at")
    listed = run.client.get_blocked_users(user_id=run.alice).data
    check_decoded(listed)
    expect_equal([(b.user_id, b.blocked_user_id) for b in listed.blocks], [(run.alice, run.bob)], "alice's blocks")
    expect_equal((listed.blocks[0].user.id, listed.blocks[0].blocked_user.id), (run.alice, run.bob), "the blocks' users")
    check_decoded(run.client.unblock_users(blocked_user_id=run.bob, user_id=run.alice).data)
    expect_equal(run.client.get_blocked_users(user_id=run.alice).data.blocks, [], "alice's blocks once unblocked")


@step
def users_blocked_left_out_of_the_blockers_counts(run):
    """What a blocker is shown of a post leaves the blocked user's reactions out; the server sees the whole."""
    carol, dave, erin = (f"{run.alice}-{name}" for name in ("carol", "dave", "erin"))
    run.client.update_users(users={user: UserRequest(id=user) for user in (carol, dave, erin)})
    post = run.client.feeds.add_activity(type="post", feeds=[f"user:{carol}"], text="carol's", user_id=carol).data.activity
    for user in (dave, erin):
        run.client.feeds.add_activity_reaction(activity_id=post.id, type="like", user_id=user)
    run.client.block_users(blocked_user_id=dave, user_id=erin)
    as_erin = Stream(api_key=run.api_key, token=run.client.create_token(erin), base_url=run.base_url)
    seen = as_erin.feeds.get_activity(id=post.id).data
    check_decoded(seen)
    activity = seen.activity
    expect_equal(
        (activity.reaction_count, activity.reaction_groups["like"].count, [r.user.id for r in activity.latest_reactions]),
        (1, 1, [erin]), "erin's view of the post, dave blocked")
    whole = run.client.feeds.get_activity(id=post.id).data.activity
    expect_equal(
        (whole.reaction_count, whole.reaction_groups["like"].count, sorted(r.user.id for r in whole.latest_reactions)),
        (2, 2, sorted([dave, erin])), "the server's view")


@step
def devices_registered_listed_and_removed(run):
    token = f"push-token-{run.suffix}"
    check_decoded(run.client.create_device(id=token, push_provider="firebase", push_provider_name="main", user_id=run.alice).data)
    check_decoded(run.client.create_device(id=token, push_provider="firebase", user_id=run.alice).data)
    listed = run.client.list_devices(user_id=run.alice).data
    check_decoded(listed)
    expect_equal(
        [(d.id, d.push_provider, d.push_provider_name, d.user_id) for d in listed.devices],
        [(token, "firebase", "main", run.alice)],
        "alice's one device, registered twice",
    )
    check_decoded(run.client.delete_device(id=token, user_id=run.alice).data)
    expect_equal(run.client.list_devices(user_id=run.alice).data.devices, [], "alice's devices once removed")


@step
def app_get(run):
    response = run.client.get_app()
    check_decoded(response.data)
    app = response.data.app
    assert isinstance(app.file_upload_config, FileUploadConfig), f"file_upload_config is {app.file_upload_config!r}"
    assert isinstance(app.image_upload_config, FileUploadConfig), f"image_upload_config is {app.image_upload_config!r}"


@step
def app_update_upload_config(run):
    response = run.client.update_app(
        file_upload_config=FileUploadConfig(size_limit=10 * 1024 * 1024, blocked_file_extensions=["exe"]),
        image_upload_config=FileUploadConfig(size_limit=0, allowed_mime_types=["image/png", "image/jpeg"]),
        cdn_expiration_seconds=7 * 24 * 3600,
    )
    check_decoded(response.data)
    app = run.client.get_app().data.app
    expect_equal(app.file_upload_config.blocked_file_extensions, ["exe"], "blocked_file_extensions")
    expect_equal(app.file_upload_config.size_limit, 10 * 1024 * 1024, "file size_limit")
    expect_equal(sorted(app.image_upload_config.allowed_mime_types), ["image/jpeg", "image/png"], "image mime types")
    expect_equal(app.cdn_expiration_seconds, 7 * 24 * 3600, "cdn_expiration_seconds")


@step
def rate_limits(run):
    """GetRateLimits as the SDK decodes it, and the headers every answer carries."""
    response = run.client.get_rate_limits(server_side=True, endpoints="GetOrCreateFeed,AddActivity")
    check_decoded(response.data)
    limits = response.data.server_side
    expect_equal(sorted(limits), ["AddActivity", "GetOrCreateFeed"], "endpoints reported")
    expect_equal(limits["AddActivity"].limit > 0 and limits["AddActivity"].remaining <= limits["AddActivity"].limit, True,
                 "limit and remaining")
    expect_equal(response.data.web, None, "platforms not asked for")
    headers = response.headers()
    expect_equal(all(headers.get(name) for name in ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset")),
                 True, "X-RateLimit-* headers")
    expect_equal(response.rate_limit().limit, int(headers.get("x-ratelimit-limit")), "the SDK's own reading of them")


@step
def users_deactivated_and_reactivated(run):
    # A deactivated user's token is refused until they are reactivated; the batch calls answer with a task.
    user = f"{run.alice}-away"
    run.client.update_users(users={user: UserRequest(id=user, name="Away")})
    as_user = Stream(api_key=run.api_key, token=run.client.create_token(user), base_url=run.base_url)
    data = run.client.deactivate_user(user_id=user).data
    check_decoded(data)
    expect_equal(data.user.id, user, "the deactivated user")
    expect(data.user.deactivated_at is not None, "deactivated_at is set")
    expect_api_error(lambda: as_user.feeds.query_activities(limit=1), 403, 17)
    data = run.client.reactivate_user(user_id=user).data
    check_decoded(data)
    expect_equal(data.user.deactivated_at, None, "deactivated_at once reactivated")
    check_decoded(as_user.feeds.query_activities(limit=1).data)
    task_id = run.client.deactivate_users(user_ids=[user]).data.task_id
    task = run.client.get_task(id=task_id).data
    check_decoded(task)
    expect_equal((task.status, task.result["user_ids"]), ("completed", [user]), "the deactivation task")
    expect_api_error(lambda: as_user.feeds.query_activities(limit=1), 403, 17)
    check_decoded(run.client.reactivate_users(user_ids=[user]).data)
    check_decoded(as_user.feeds.query_activities(limit=1).data)


@step
def users_guest_created_when_allowed(run):
    # A guest comes only once the app allows guests; its token is its own user's.
    guest = f"{run.alice}-guest"
    expect_api_error(lambda: run.client.create_guest(user=UserRequest(id=guest)), 403, 17)
    run.client.update_app(guest_user_creation_disabled=False)
    try:
        data = run.client.create_guest(user=UserRequest(id=guest, name="Guest")).data
        check_decoded(data)
        expect_equal((data.user.id, data.user.role, data.user.name), (guest, "guest", "Guest"), "the guest")
        as_guest = Stream(api_key=run.api_key, token=data.access_token, base_url=run.base_url)
        posted = as_guest.feeds.add_activity(type="post", feeds=[f"user:{guest}"], text="hello as a guest").data.activity
        expect_equal(posted.user.id, guest, "the guest's post")
        expect_api_error(lambda: run.client.create_guest(user=UserRequest(id=run.alice)), 409, 4)
    finally:
        run.client.update_app(guest_user_creation_disabled=True)
