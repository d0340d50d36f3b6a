/// A keyset page read as `limit + 1` rows: the page, and the cursor after its last row when the
/// extra row showed that more follow.
func keysetPage<Row, Cursor>(_ rows: [Row], limit: Int, cursor: (Row) -> Cursor) -> (rows: [Row], next: Cursor?) {
    guard rows.count > limit else { return (rows, nil) }
    let page = Array(rows.prefix(limit))
    return (page, page.last.map(cursor))
}
