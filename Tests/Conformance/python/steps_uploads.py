"""Steps: file and image uploads, with and without their optional parts, and deleting them."""

from getstream.models import Attachment, ImageSize, OnlyUserID

from support import check_decoded, expect_api_error, expect_equal, fetch, fetch_status, step


@step
def upload_file(run):
    response = run.client.upload_file(file=run.files["notes.txt"])
    check_decoded(response.data)
    expect_equal(fetch(response.data.file), run.bytes["notes.txt"], "bytes served at the file URL")
    run.urls["file"] = response.data.file


@step
def upload_file_with_user(run):
    response = run.client.upload_file(file=run.files["spare.txt"], user=OnlyUserID(id=run.alice))
    check_decoded(response.data)
    expect_equal(fetch(response.data.file), run.bytes["spare.txt"], "bytes served at the file URL")
    run.urls["spare file"] = response.data.file


@step
def upload_image(run):
    response = run.client.upload_image(file=run.files["gradient.png"])
    check_decoded(response.data)
    expect_equal(fetch(response.data.file), run.bytes["gradient.png"], "bytes served at the image URL")
    assert response.data.thumb_url, "no thumb_url"
    assert fetch(response.data.thumb_url), "the thumb_url serves nothing"
    run.urls["image"] = response.data.file


@step
def upload_image_with_sizes_and_user(run):
    # The second size leaves resize and crop out: the SDK sends them as nulls in the part.
    sizes = [ImageSize(width=4, height=4, resize="crop", crop="center"), ImageSize(width=2, height=2)]
    response = run.client.upload_image(file=run.files["spare.png"], upload_sizes=sizes, user=OnlyUserID(id=run.alice))
    check_decoded(response.data)
    expect_equal(response.data.upload_sizes, sizes, "upload_sizes echoed")
    expect_equal(fetch(response.data.file), run.bytes["spare.png"], "bytes served at the image URL")
    run.urls["spare image"] = response.data.file


@step
def upload_video_gets_a_poster(run):
    response = run.client.upload_file(file=run.files["clip.mp4"])
    check_decoded(response.data)
    assert response.data.thumb_url, "no thumb_url for a video"
    poster = fetch(response.data.thumb_url)
    assert poster[:3] == b"\xff\xd8\xff", "the video's thumb_url is not a JPEG"
    # Linked by URL as Stream's sample apps do, with a duration the client measured (wrongly): the
    # server's measure stands over it, the rest of custom stays.
    activity = run.client.feeds.add_activity(
        type="post", feeds=[run.alice_feed], user_id=run.alice,
        attachments=[Attachment(type="video", asset_url=response.data.file, thumb_url=response.data.thumb_url,
                                custom={"duration": 7, "caption": "beach"})],
    ).data.activity
    video = activity.attachments[0]
    expect_equal((video.original_width, video.original_height), (320, 240), "the video's size")
    assert abs(video.custom["duration"] - 2) < 0.1, f"the video's duration: {video.custom}"
    expect_equal((video.custom["codec"], video.custom["caption"]), ("h264", "beach"), "the video's custom")
    assert video.thumb_url and fetch(video.thumb_url)[:3] == b"\xff\xd8\xff", "the attachment's thumb_url"
    run.client.feeds.delete_activity(id=activity.id, hard_delete=True)


@step
def upload_refused_by_app_settings(run):
    error = expect_api_error(lambda: run.client.upload_file(file=run.files["setup.exe"]), 400, 4)
    assert "exe" in error.message, f"the message does not name the rule: {error.message}"


@step
def file_delete(run):
    url = run.urls["spare file"]
    check_decoded(run.client.delete_file(url=url).data)
    expect_equal(fetch_status(url), 404, "status of the deleted file's URL")
    run.client.delete_file(url=url)  # again: still fine


@step
def image_delete(run):
    url = run.urls["spare image"]
    check_decoded(run.client.delete_image(url=url).data)
    expect_equal(fetch_status(url), 404, "status of the deleted image's URL")
