import Hummingbird

/// The console's one stylesheet: system fonts, a narrow column on a laptop, tables that scroll
/// sideways on a phone.
package enum AdminStylesheet {
    package static let css = """
        :root { color-scheme: light dark; --fg: #1d2330; --muted: #5c6577; --line: #d8dce4; --bg: #fff; --panel: #f5f7fa;
          --accent: #2457d6; --danger: #b42318; --ok: #17663a; }
        @media (prefers-color-scheme: dark) { :root { --fg: #e6e9ef; --muted: #9aa3b5; --line: #343b4a; --bg: #14171d;
          --panel: #1c2029; --accent: #7aa2ff; --danger: #ff8a80; --ok: #7bd88f; } }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
          background: var(--bg); }
        header { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.5rem; padding: .75rem 1.25rem;
          border-bottom: 1px solid var(--line); background: var(--panel); }
        .brand { font-weight: 650; }
        nav { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem 1rem; }
        nav a, button.link { color: var(--accent); text-decoration: none; background: none; border: 0; padding: 0;
          font: inherit; cursor: pointer; }
        nav a:hover, button.link:hover { text-decoration: underline; }
        main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
        h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
        h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; }
        form.inline { display: inline; }
        fieldset { border: 1px solid var(--line); border-radius: 8px; padding: .75rem 1rem 1rem; margin: 0 0 1rem; }
        legend { font-weight: 600; padding: 0 .25rem; }
        label { display: block; margin: .6rem 0 .2rem; font-weight: 500; }
        .hint { color: var(--muted); font-size: .85rem; margin: .15rem 0 0; }
        input[type=text], input[type=password], input[type=number], select {
          width: 100%; max-width: 36rem; padding: .45rem .6rem; font: inherit; color: inherit; background: var(--bg);
          border: 1px solid var(--line); border-radius: 6px; }
        input[aria-invalid=true] { border-color: var(--danger); outline: 1px solid var(--danger); }
        button { font: inherit; padding: .45rem 1rem; border-radius: 6px; border: 1px solid var(--accent);
          background: var(--accent); color: #fff; cursor: pointer; }
        button.danger { background: none; color: var(--danger); border-color: var(--danger); padding: .2rem .6rem; }
        .notice, .error { padding: .6rem .8rem; border-radius: 6px; border: 1px solid; }
        .notice { color: var(--ok); border-color: var(--ok); }
        .error { color: var(--danger); border-color: var(--danger); }
        .error-text { color: var(--danger); }
        .filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; margin-bottom: 1rem; }
        .filters label { margin: 0; }
        .filters input, .filters select { width: auto; min-width: 9rem; }
        .table { overflow-x: auto; border: 1px solid var(--line); border-radius: 8px; }
        table { border-collapse: collapse; width: 100%; font-size: .92rem; }
        th, td { text-align: left; padding: .45rem .6rem; border-bottom: 1px solid var(--line); vertical-align: middle; }
        th { background: var(--panel); font-weight: 600; white-space: nowrap; }
        td.number, th.number { text-align: right; white-space: nowrap; }
        tr:last-child td { border-bottom: 0; }
        img.thumb { width: 56px; height: 56px; object-fit: cover; border-radius: 4px; display: block; background: var(--panel); }
        .muted { color: var(--muted); }
        .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem; overflow-wrap: break-word; }
        .sign-in { max-width: 26rem; margin: 1rem auto 2rem; }
        main:has(.sign-in) h1 { max-width: 26rem; margin: 2rem auto 0; }
        .sign-in input { max-width: none; }
        .grid { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr)); }
        ul.changes { margin: 0; padding-left: 1.1rem; }
        """

    package static var response: Response {
        Response(
            status: .ok, headers: [.contentType: "text/css; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: css)))
    }
}
