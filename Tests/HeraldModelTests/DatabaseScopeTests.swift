import Testing

@testable import HeraldModel

@Suite("DatabaseScope")
struct DatabaseScopeTests {
    @Test("push dbs codes are the observed wire values", arguments: [
        (DatabaseScope.private, 1), (.public, 2), (.shared, 3),
    ])
    func pushCode(scope: DatabaseScope, code: Int) throws {
        #expect(scope.pushCode == code)
        #expect(DatabaseScope(pushCode: code) == scope)
        #expect(try Fixtures.decode(DatabaseScope.self, "\"\(scope.rawValue)\"") == scope)
    }

    @Test("unknown codes and names are rejected")
    func unknown() throws {
        #expect(DatabaseScope(pushCode: 0) == nil)
        let error = try #require(Fixtures.decodeError(DatabaseScope.self, #""Private""#))
        #expect(error.code == .unknownValue)
        #expect(error.reason == #"unknown database "Private" (expected one of: public, private, shared)"#)
    }
}
