import Foundation
import HeraldModel
@testable import HeraldReader
import Hummingbird
import Testing

@testable import HeraldAPI

/// The fetch body's fast reading (issue 13) agrees with `WireCodec`: what it reads, the
/// decoder reads the same; what it declines goes to the decoder, errors included.
@Suite("Fetch body: fast reading agrees with the decoder")
struct FetchChangesBodyTests {
    /// What `JSONBodies` decodes the body as (empty is `{}`), or `nil` when it refuses it.
    static func decoded(_ body: String) -> FetchChangesRequest? {
        try? JSONBodies(maximumBodyBytes: 1 << 20).decode(
            FetchChangesRequest.self, from: ByteBuffer(string: body), emptyIsObject: true)
    }

    @Test("the usual bodies are read fast, as the decoder reads them", arguments: [
        "", "  \n", "{}", #"{"resultsLimit": 20}"#, #"{"resultsLimit":400,"includeRead":false}"#,
        #" { "serverChangeToken" : "AQAAAAAAAAAB-_x" , "includeRead" : true } "#,
        #"{"serverChangeToken": null, "resultsLimit": null, "includeRead": null}"#,
        #"{"resultsLimit": -3}"#, #"{"resultsLimit": 0}"#, #"{"resultsLimit": -0}"#,
        #"{"resultsLimit": 999999999999999999}"#,
    ])
    func usual(body: String) throws {
        let fast = try #require(FetchChangesBody.parse(ByteBuffer(string: body)))
        #expect(fast == Self.decoded(body))
    }

    @Test("anything else is left to the decoder", arguments: [
        "[]", "{", "}", #"{"resultsLimit": 1.5}"#, #"{"resultsLimit": 1e2}"#, #"{"resultsLimit": 01}"#,
        #"{"resultsLimit": 99999999999999999999}"#, #"{"resultsLimit": "20"}"#, #"{"includeRead": 1}"#,
        #"{"includeRead": truex}"#, #"{"serverChangeToken": "a\u0041"}"#, #"{"serverChangeToken": "é"}"#,
        #"{"other": 1}"#, #"{"resultsLimit": 1, "resultsLimit": 2}"#, #"{"resultsLimit": 1,}"#,
        #"{"resultsLimit": 1} x"#, #"{"resultsLimit" 1}"#, #"{"resultsLimit": -}"#, "null",
    ])
    func declined(body: String) {
        #expect(FetchChangesBody.parse(ByteBuffer(string: body)) == nil)
    }

    @Test("random bodies: read fast only as the decoder reads them")
    func random() {
        let pieces = [
            "{", "}", ",", ":", " ", "\"resultsLimit\"", "\"includeRead\"", "\"serverChangeToken\"", "\"x\"",
            "1", "-", "0", "20", ".5", "e3", "true", "false", "null", "\"tok\"", "\"\\n\"", "[", "]",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let count = Int.random(in: 0...12, using: &generator)
            let body = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            if let fast = FetchChangesBody.parse(ByteBuffer(string: body)) {
                #expect(fast == Self.decoded(body), "body \(body)")
            }
        }
        // The common shape, generated: always read fast.
        for _ in 0..<500 {
            let limit = Int.random(in: -1000...1000, using: &generator)
            let body = #"{"resultsLimit": \#(limit), "includeRead": \#(Bool.random(using: &generator))}"#
            let fast = FetchChangesBody.parse(ByteBuffer(string: body))
            #expect(fast != nil && fast == Self.decoded(body), "body \(body)")
        }
    }

    @Test("the page written into a ByteBuffer is jsonBody, byte for byte")
    func pageBody() throws {
        let entries = (1...3).map { index in
            EncodedNotificationPage.Entry(
                notificationID: "n\(index)", sequence: Int64(index), isRead: false, json: Data(#"{"n":\#(index)}"#.utf8))
        }
        for (notifications, moreComing) in [(entries, true), (entries, false), ([], false)] {
            let page = EncodedNotificationPage(
                notifications: notifications, serverChangeToken: ChangeToken(rawValue: "AQ-_x"), moreComing: moreComing)
            #expect(Data(page.jsonBody(allocator: ByteBufferAllocator()).readableBytesView) == page.jsonBody)
        }
    }

    @Test("bearer tokens: ASCII scheme in any case, trimmed only when needed", arguments: [
        ("Bearer abc.def", "abc.def"), ("bEaReR abc", "abc"), ("Bearer   abc  ", "abc"), ("Bearer \tabc\t", "abc"),
        ("Basic abc", nil), ("Bearer", nil), ("Bearer ", nil), ("Bearers abc", nil), ("Bearer \t", nil),
    ] as [(String, String?)])
    func bearer(authorization: String, token: String?) {
        #expect(APIAuthenticator.bearerToken(authorization) == token)
    }
}
