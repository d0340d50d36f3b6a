"""Steps: link previews (GetOG) of a page on loopback, and a target inside refused."""

from support import check_decoded, expect_api_error, expect_equal, step


@step
def link_preview_read(run):
    og = run.client.get_og(url=run.page_url).data
    check_decoded(og)
    expect_equal((og.title, og.text, og.author_name), ("Sea & Sky", "Waves, all day", "Beach News"), "the preview")
    expect_equal(og.image_url, run.page_url.rsplit("/", 1)[0] + "/sea.jpg", "the image, made absolute")
    expect_equal(og.og_scrape_url, run.page_url, "og_scrape_url")


@step
def link_preview_refuses_the_inside(run):
    expect_api_error(lambda: run.client.get_og(url="http://169.254.169.254/latest/meta-data/"), 400, 4)
