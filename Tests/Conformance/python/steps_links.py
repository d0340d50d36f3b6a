"""Steps: link previews (GetOG) of a page on loopback, and a target inside refused."""

from support import check_decoded, expect_api_error, expect_equal, fetch, step


@step
def link_preview_read(run):
    og = run.client.get_og(url=run.page_url).data
    check_decoded(og)
    expect_equal((og.title, og.text, og.author_name), ("Sea & Sky", "Waves, all day", "Beach News"), "the preview")
    expect_equal(og.og_scrape_url, run.page_url, "og_scrape_url")
    # The image is the server's stored copy, and its thumbnail, never the page's own URL.
    page_host = run.page_url.rsplit("/", 1)[0]
    assert og.image_url and "/cdn/" in og.image_url and not og.image_url.startswith(page_host), f"the image: {og}"
    assert og.thumb_url, f"the preview's thumbnail: {og}"
    expect_equal(fetch(og.image_url)[:8], b"\x89PNG\r\n\x1a\n", "the stored image")
    assert fetch(og.thumb_url), "the preview's thumbnail"


@step
def link_preview_refuses_the_inside(run):
    expect_api_error(lambda: run.client.get_og(url="http://169.254.169.254/latest/meta-data/"), 400, 4)


@step
def link_enriches_an_activity(run):
    # The first link of a text comes back as a preview attachment, unless skip_enrich_url.
    added = run.client.feeds.add_activity(
        type="post", feeds=[run.alice_feed], text=f"look: {run.page_url}.", user_id=run.alice
    ).data.activity
    expect_equal([a.og_scrape_url for a in added.attachments], [run.page_url], "the preview's og_scrape_url")
    expect_equal((added.attachments[0].title, added.attachments[0].title_link), ("Sea & Sky", run.page_url), "the preview")
    assert added.attachments[0].image_url and added.attachments[0].thumb_url, "the preview's image"
    expect_equal(added.attachments[0].asset_url, None, "a preview's asset_url")
    skipped = run.client.feeds.add_activity(
        type="post", feeds=[run.alice_feed], text=run.page_url, user_id=run.alice, skip_enrich_url=True
    ).data.activity
    expect_equal(skipped.attachments, [], "attachments with skip_enrich_url")
    run.client.feeds.delete_activities(ids=[added.id, skipped.id], hard_delete=True)  # later steps count alice's feed
