import FeedsAPI
import FeedsCore

extension FeedsAPIImplementation {
    /// GetRateLimits: for each operation (or those `endpoints` names), the caller's budget of its
    /// class as it stands: users' budgets for the client platforms, the server's for
    /// `server_side`. With no platform asked for, all four.
    func getRateLimits(_ input: Operations.GetRateLimits.Input) async throws -> Operations.GetRateLimits.Output {
        let request = try request
        let query = input.query
        let named = query.endpoints.map { Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) }
        let operations = APIOperation.all.filter { named?.contains($0.name) ?? true }
        func limits(of caller: RateLimiter.Caller) -> [String: Components.Schemas.LimitInfo] {
            var limits: [String: Components.Schemas.LimitInfo] = [:]
            for operation in operations {
                guard let quota = rateLimiter.peek(operation.rateLimitClass, by: caller) else { continue }
                limits[operation.name] = .init(
                    limit: Int64(quota.limit), remaining: Int64(quota.remaining), reset: Int64(quota.reset))
            }
            return limits
        }
        let asked = [query.serverSide, query.android, query.ios, query.web]
        let all = !asked.contains(true)
        // A server call asking for users' limits gets them as a user who has made no call yet.
        let user = limits(of: .user(request.principal.userID ?? ""))
        return .ok(
            .init(
                body: .json(
                    .init(
                        android: all || query.android == true ? .init(additionalProperties: user) : nil,
                        duration: request.duration,
                        ios: all || query.ios == true ? .init(additionalProperties: user) : nil,
                        serverSide: all || query.serverSide == true ? .init(additionalProperties: limits(of: .server)) : nil,
                        web: all || query.web == true ? .init(additionalProperties: user) : nil))))
    }
}
