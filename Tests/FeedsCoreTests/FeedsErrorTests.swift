import Testing

@testable import FeedsCore

@Suite struct FeedsErrorTests {
    @Test(arguments: [
        (FeedsError.Kind.input, 400, 4),
        (.authentication, 401, 5),
        (.badAPIKey, 401, 2),
        (.tokenExpired, 401, 40),
        (.tokenNotYetValid, 401, 41),
        (.tokenSignature, 401, 43),
        (.notAllowed, 403, 17),
        (.notFound, 404, 16),
        (.conflict, 409, 4),
        (.payloadTooLarge, 413, 22),
        (.unsupportedMediaType, 415, 4),
        (.notAcceptable, 406, 4),
        (.methodNotAllowed, 405, 4),
        (.rateLimited, 429, 9),
        (.unavailable, 503, -1),
        (.internal, 500, -1),
    ])
    func kindMapsToStatusAndCode(kind: FeedsError.Kind, status: Int, code: Int) {
        #expect(kind.status == status)
        #expect(kind.code == code)
    }

    @Test func inputCarriesMessageAndField() {
        let error = FeedsError.input("type is required", field: "type")
        #expect(error.kind == .input)
        #expect(error.message == "type is required")
        #expect(error.field == "type")
        #expect(FeedsError.input("bad").field == nil)
    }

    @Test func conflictCarriesField() {
        let error = FeedsError.conflict("id taken", field: "id")
        #expect(error.kind == .conflict)
        #expect(error.field == "id")
        #expect(error.kind.status == 409)
    }

    @Test func notAllowedAndNotFoundHaveNoField() {
        let refused = FeedsError.notAllowed("no")
        let missing = FeedsError.notFound("gone")
        #expect(refused.kind == .notAllowed && refused.field == nil && refused.message == "no")
        #expect(missing.kind == .notFound && missing.field == nil && missing.message == "gone")
    }

    @Test func equalityComparesKindMessageAndField() {
        #expect(FeedsError.input("x", field: "a") == FeedsError(.input, "x", field: "a"))
        #expect(FeedsError.input("x", field: "a") != FeedsError.input("x", field: "b"))
        #expect(FeedsError.input("x") != FeedsError.conflict("x"))
    }
}
