"""Steps: refused calls raise the SDK's StreamApiException with Stream's status and code, body decoded."""

from getstream import Stream

from support import check_decoded, expect_api_error, step


@step
def error_invalid_input(run):
    error = expect_api_error(
        lambda: run.client.feeds.add_activity(type="post", feeds=[], text="nowhere", user_id=run.alice), 400, 4
    )
    check_decoded(error.api_error)
    assert "feeds" in error.exception_fields, f"exception_fields {error.exception_fields} do not name feeds"


@step
def error_not_found(run):
    error = expect_api_error(lambda: run.client.feeds.get_activity(id="no-such-activity"), 404, 16)
    check_decoded(error.api_error)


@step
def error_settings_out_of_range(run):
    error = expect_api_error(lambda: run.client.update_app(cdn_expiration_seconds=10), 400, 4)
    assert "cdn_expiration_seconds" in error.exception_fields, f"exception_fields {error.exception_fields}"


@step
def error_user_may_not_update_app(run):
    user = Stream(api_key=run.api_key, token=run.client.create_token(run.alice), base_url=run.base_url)
    expect_api_error(lambda: user.update_app(cdn_expiration_seconds=14400), 403, 17)


@step
def error_wrong_api_key(run):
    stranger = Stream(api_key="not-our-key", api_secret=run.api_secret, base_url=run.base_url)
    check_decoded(expect_api_error(stranger.get_app, 401, 2).api_error)


@step
def error_wrong_secret(run):
    forger = Stream(api_key=run.api_key, api_secret="f" * 64, base_url=run.base_url)
    check_decoded(expect_api_error(forger.get_app, 401, 43).api_error)
