import FeedsPostgres
import Testing

@Suite struct SQLStatementSplitterTests {
    @Test func splitsOnSemicolonsAndDropsEmptyStatements() {
        #expect(
            SQLStatementSplitter.split("CREATE TABLE a (x int);; CREATE TABLE b (y int);\n") == [
                "CREATE TABLE a (x int)", "CREATE TABLE b (y int)",
            ])
    }

    @Test func keepsSemicolonsInsideQuotesAndComments() {
        let sql = """
            INSERT INTO t VALUES ('a;b', 'it''s; fine');
            -- a comment; with a semicolon
            SELECT "odd;name" FROM t; /* block; comment */ SELECT 2;
            """
        let statements = SQLStatementSplitter.split(sql)
        #expect(statements.count == 3)
        #expect(statements[0] == "INSERT INTO t VALUES ('a;b', 'it''s; fine')")
        #expect(statements[1].hasSuffix("SELECT \"odd;name\" FROM t"))
        #expect(statements[2].hasSuffix("SELECT 2"))
    }

    @Test func keepsDollarQuotedBodiesWhole() {
        let sql = """
            CREATE FUNCTION f() RETURNS int AS $$ BEGIN RETURN 1; END; $$ LANGUAGE plpgsql;
            CREATE FUNCTION g() RETURNS int AS $body$ SELECT 2; $body$ LANGUAGE sql;
            SELECT $1;
            """
        let statements = SQLStatementSplitter.split(sql)
        #expect(statements.count == 3)
        #expect(statements[0].hasSuffix("$$ BEGIN RETURN 1; END; $$ LANGUAGE plpgsql"))
        #expect(statements[1].contains("$body$ SELECT 2; $body$"))
        #expect(statements[2] == "SELECT $1")
    }

    @Test func aFileOfOnlyCommentsHasNoStatements() {
        #expect(SQLStatementSplitter.split("-- nothing here\n-- at all\n").isEmpty)
    }
}
