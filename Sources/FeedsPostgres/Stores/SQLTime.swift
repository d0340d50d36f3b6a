/// Times bound to queries as whole microseconds. PostgresNIO encodes a `Date` by truncating a
/// `Double`, which can land a microsecond early, so a bound equal to a stored time would miss it.
enum SQLTime {
    /// The timestamptz of the microseconds since 1970 in `placeholder` (a `$n` bound to an `Int64`).
    static func microseconds(_ placeholder: String) -> String {
        "(timestamptz 'epoch' + \(placeholder) * interval '1 microsecond')"
    }
}
