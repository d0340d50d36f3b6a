import PostgresNIO

extension PostgresClient.Configuration {
    /// The same database, for a pool that runs only the server's prepared reads (the feed row, the
    /// feed pages), each always with its generic plan. Left to choose, PostgreSQL planned the
    /// prepared feed page afresh on every execution, reading the feed column's statistics each
    /// time: on feeds of a few hundred activities, pages went from 770-800 to 1000-1040 a second
    /// with the generic plan. Everything else keeps a pool where each statement is planned for its
    /// values: a filter on a rare user id needs its value to choose its index, and the create, on
    /// its generic plan, once ran at a quarter of its speed.
    public var generic: PostgresClient.Configuration {
        var configuration = self
        configuration.options.additionalStartupParameters.append(("plan_cache_mode", "force_generic_plan"))
        return configuration
    }
}
