import PostgresNIO

extension PostgresClient.Configuration {
    /// The same database, with connections that give their pool's name as `application_name`, so
    /// that `pg_stat_activity` tells the server's pools apart from each other and from other clients.
    public func named(_ applicationName: String) -> PostgresClient.Configuration {
        var configuration = self
        configuration.options.additionalStartupParameters.append(("application_name", applicationName))
        return configuration
    }
}
