import Testing
@testable import HeraldPayload

@Suite("PayloadError: code, reason and where")
struct PayloadErrorTests {
    @Test("descriptions", arguments: [
        (PayloadError.Location(file: "a.strings", line: 3, column: 7), "a.strings:3:7: bad [strings.syntax]"),
        (PayloadError.Location(file: "a.strings", line: 3), "a.strings:3: bad [strings.syntax]"),
        (PayloadError.Location(line: 3, column: 7), "line 3, column 7: bad [strings.syntax]"),
        (PayloadError.Location(file: "x.stringsdict", key: "K/v"), "x.stringsdict: key \"K/v\": bad [strings.syntax]"),
        (PayloadError.Location(key: "K"), "key \"K\": bad [strings.syntax]"),
        (PayloadError.Location(), "bad [strings.syntax]"),
    ])
    func descriptions(location: PayloadError.Location, expected: String) {
        #expect(PayloadError(.stringsSyntax, "bad", at: location).description == expected)
    }

    @Test("codes are stable strings")
    func codes() {
        #expect(PayloadError.Code.formatString.rawValue == "format.invalid")
        #expect(PayloadError.Code(rawValue: "payload.tooLarge").description == "payload.tooLarge")
    }
}
