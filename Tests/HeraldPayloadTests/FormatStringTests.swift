import Foundation
import Testing
@testable import HeraldPayload

@Suite("FormatString: printf-style specifiers")
struct FormatStringTests {
    @Test("rendering", arguments: [
        ("%@", [FormatArgument.string("a")], "a"),
        ("%@ and %@", [.string("a"), .string("b")], "a and b"),
        ("%2$@ %1$@", [.string("a"), .string("b")], "b a"),
        ("%1$@ %1$@", [.string("a")], "a a"),
        ("100%%", [], "100%"),
        ("%%%@%%", [.string("x")], "%x%"),
        ("no specifiers", [.string("ignored")], "no specifiers"),
        ("", [], ""),
        ("%d", [.integer(42)], "42"),
        ("%i", [.integer(-42)], "-42"),
        ("%ld %lu", [.integer(7), .integer(8)], "7 8"),
        ("%lld", [.integer(Int64.min)], "-9223372036854775808"),
        ("%llu", [.integer(Int64.max)], "9223372036854775807"),
        ("%u", [.integer(-1)], "18446744073709551615"),
        ("%d", [.integer(5_000_000_000)], "5000000000"),
        ("%hhd", [.integer(300)], "300"),
        ("%'d", [.integer(1_234_567)], "1234567"),
        ("%5d|%-5d|%05d|%+d", [.integer(42), .integer(42), .integer(42), .integer(42)], "   42|42   |00042|+42"),
        ("%x %X %o %#x", [.integer(255), .integer(255), .integer(8), .integer(255)], "ff FF 10 0xff"),
        ("%f", [.double(1.5)], "1.500000"),
        ("%.2f", [.double(3.14159)], "3.14"),
        ("%.0f", [.double(2.6)], "3"),
        ("%8.3f|", [.double(-1.5)], "  -1.500|"),
        ("%lf %Lf", [.double(0.5), .double(0.25)], "0.500000 0.250000"),
        ("%e", [.double(12345.678)], "1.234568e+04"),
        ("%g %g %G", [.double(0.0001), .double(1e20), .double(1e-10)], "0.0001 1e+20 1E-10"),
        ("%.2f", [.integer(2)], "2.00"),
        ("%d", [.double(3.0)], "3"),
        ("%@", [.double(2.5)], "2.5"),
        ("%@", [.double(3.0)], "3"),
        ("%@", [.integer(42)], "42"),
        ("%@", [.timestamp(0)], "1970-01-01T00:00:00Z"),
        ("%@", [.timestamp(1_795_300_000_123)], "2026-11-21T22:26:40.123Z"),
        ("%@", [.timestamp(-1000)], "1969-12-31T23:59:59Z"),
        ("%@", [.timestamp(951_782_400_000)], "2000-02-29T00:00:00Z"),
        ("%lld", [.timestamp(1_795_300_000_123)], "1795300000123"),
        ("%s", [.string("abc")], "abc"),
        ("%c%c", [.integer(65), .string("xyz")], "Ax"),
        ("%.2@|%5@|%-5@|", [.string("abcdef"), .string("a"), .string("b")], "ab|    a|b    |"),
        ("%@ 🎉 %@", [.string("é"), .string("ü")], "é 🎉 ü"),
    ])
    func render(format: String, arguments: [FormatArgument], expected: String) {
        let parsed = FormatString(format)
        #expect(parsed.problems.isEmpty, "\(parsed.problems)")
        #expect(parsed.render(arguments) == expected)
    }

    @Test("type mismatches print the argument's text", arguments: [
        ("%d", FormatArgument.string("abc"), "abc"),
        ("%5d", .string("ab"), "   ab"),
        ("%d", .double(2.5), "2.5"),
        ("%x", .double(1e300), "1e+300"),
        ("%f", .string("x"), "x"),
        ("%c", .double(1.5), "1.5"),
        ("%c", .integer(-5), "-5"),
        ("%d", .double(.nan), "nan"),
        ("%f", .double(-.infinity), "-inf"),
    ])
    func mismatches(format: String, argument: FormatArgument, expected: String) {
        #expect(FormatString(format).render([argument]) == expected)
    }

    @Test("missing arguments print the placeholder (empty by default)")
    func missingArguments() {
        #expect(FormatString("%@ %@").render([.string("a")]) == "a ")
        #expect(FormatString("%3$@!").render([.string("a")]) == "!")
        #expect(FormatString("%@ %d").render([], missingArgument: "?") == "? ?")
        #expect(FormatString("%#@n@").render([]) == "")
    }

    @Test("bad specifiers print as written and are listed as problems", arguments: [
        ("%q", "%q", "unknown format specifier '%q'", 1),
        ("Hello %q!", "Hello %q!", "unknown format specifier '%q'", 7),
        ("abc %", "abc %", "incomplete format specifier", 5),
        ("%5", "%5", "incomplete format specifier", 1),
        ("%l", "%l", "unknown format specifier '%l'", 1),
        ("%qd %q!", "%qd %q!", "unknown format specifier '%q'", 5),
        ("%0$@", "%0$@", "positions start at 1", 1),
        ("%*d", "%*d", "not supported", 1),
        ("%.*f", "%.*f", "not supported", 1),
        ("%#@name", "%#@name", "unterminated plural variable", 1),
        ("%#@@", "%#@@", "empty plural variable name", 1),
        ("%C", "%C", "unknown format specifier", 1),
        ("%n", "%n", "unknown format specifier", 1),
    ])
    func badSpecifiers(format: String, rendered: String, reason: String, column: Int) throws {
        let parsed = FormatString(format)
        #expect(parsed.render([.string("X"), .string("Y")]) == rendered.replacingOccurrences(of: "%qd", with: "X"))
        let problem = try #require(parsed.problems.first)
        #expect(problem.code == .formatString)
        #expect(problem.reason.contains(reason), "\(problem)")
        #expect(problem.location.column == column)
        let error = try #require(throws: PayloadError.self) { try FormatString(validating: format) }
        #expect(error == problem)
    }

    @Test("huge widths are a problem and are clamped")
    func hugeWidth() {
        let parsed = FormatString("%2000d")
        #expect(parsed.problems.first?.reason.contains("width 2000") == true)
        #expect(parsed.render([.integer(1)]).count == FormatParser.maximumWidth)
    }

    @Test("mixing positional and sequential follows CoreFoundation and is a problem")
    func mixedPositions() throws {
        let parsed = FormatString("%2$@ %@ %@")
        #expect(parsed.render([.string("a"), .string("b")]) == "b a b")
        #expect(parsed.problems.count == 1)
        #expect(throws: PayloadError.self) { try FormatString(validating: "%2$@ %@") }
    }

    @Test("argument count validation", arguments: [
        ("%@ %@", 1, "'%@' refers to argument 2 but only 1 argument is given", 4),
        ("%3$@", 2, "'%3$@' refers to argument 3 but only 2 arguments are given", 1),
        ("%@", 0, "'%@' refers to argument 1 but only 0 arguments are given", 1),
    ])
    func argumentCount(format: String, count: Int, reason: String, column: Int) throws {
        let error = try #require(throws: PayloadError.self) { try FormatString(validating: format, argumentCount: count) }
        #expect(error.reason == reason)
        #expect(error.location.column == column)
    }

    @Test("valid formats pass validation", arguments: [
        ("%@", 1), ("%1$@ %2$d", 2), ("%%", 0), ("", 0), ("%lld items", 1), ("%.2f", 1),
        ("%#@files@", 1), ("%1$#@files@ in %2$#@folders@", 2), ("%@", 3),
    ])
    func valid(format: String, count: Int) throws {
        _ = try FormatString(validating: format, argumentCount: count)
    }

    @Test("argument count and variable names")
    func introspection() {
        #expect(FormatString("%3$@").argumentCount == 3)
        #expect(FormatString("%@ %d").argumentCount == 2)
        #expect(FormatString("100%%").argumentCount == 0)
        #expect(FormatString("%#@a@ %#@b@ %#@a@").variableNames == ["a", "b"])
        #expect(FormatString("%2$#@a@").specifiers.first?.argumentIndex() == 1)
        #expect(FormatString("x %@").specifiers.first?.column == 3)
    }

    @Test("sequential numbering can start later (plural forms)")
    func firstSequential() {
        let form = FormatString("%d files, %2$@")
        #expect(form.render([.string("x"), .string("y"), .integer(3)], firstSequential: 2) == "3 files, y")
    }

    @Test("plural variables are rendered by the caller")
    func variables() {
        let format = FormatString("%@ has %#@files@")
        let text = format.render([.string("Ann"), .integer(3)]) { request in
            "<\(request.name) #\(request.argumentIndex) \(request.argument?.text ?? "-")>"
        }
        #expect(text == "Ann has <files #1 3>")
    }
}
