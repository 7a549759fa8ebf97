import Crypto
import Foundation
import HeraldTestSupport
import Testing

@testable import HeraldReader

@Suite("Change tokens")
struct ChangeTokenTests {
    let signer: ChangeTokenSigner
    let container = ReaderFixtures.container

    init() throws { signer = try ReaderFixtures.signer() }

    func expectInvalid(_ token: ChangeToken, recipient: String = "_u1", container: String? = nil, _ comment: Comment? = nil) {
        let error = ReaderFixtures.readerError {
            () throws(ReaderError) in try signer.sequence(of: token, recipient: recipient, container: container ?? self.container)
        }
        #expect(error?.serverErrorCode == "BAD_REQUEST", comment)
        #expect(error?.reason.hasPrefix("invalid change token") == true, comment)
    }

    @Test("a token round-trips its position for the same user and container", arguments: [Int64(-1), 0, 1, 41, 1 << 40, .max])
    func roundTrip(sequence: Int64) throws {
        let token = signer.token(recipient: "_u1", container: container, sequence: sequence)
        #expect(try signer.sequence(of: token, recipient: "_u1", container: container) == sequence)
        #expect(token.rawValue.count == 44)
        #expect(token.rawValue.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(token == signer.token(recipient: "_u1", container: container, sequence: sequence))
    }

    @Test("tokens encode as a plain JSON string")
    func codable() throws {
        let token = signer.token(recipient: "_u1", container: container, sequence: 7)
        let data = try JSONEncoder().encode(["serverChangeToken": token])
        #expect(String(decoding: data, as: UTF8.self) == #"{"serverChangeToken":"\#(token.rawValue)"}"#)
        #expect(try JSONDecoder().decode([String: ChangeToken].self, from: data)["serverChangeToken"] == token)
    }

    @Test("flipping any bit pattern of any decoded byte is refused")
    func everyByteFlipped() throws {
        let token = signer.token(recipient: "_u1", container: container, sequence: 42)
        let bytes = try #require(Base64URL.decode(token.rawValue))
        #expect(bytes.count == ChangeTokenSigner.tokenLength)
        for index in bytes.indices {
            for mask: UInt8 in [0x01, 0x02, 0x10, 0x80, 0xFF] {
                var altered = bytes
                altered[index] ^= mask
                expectInvalid(ChangeToken(rawValue: Base64URL.encode(altered)), "byte \(index) ^ \(mask)")
            }
        }
    }

    @Test("replacing any character of the string with any other is refused")
    func everyCharacterReplaced() throws {
        let token = signer.token(recipient: "_u1", container: container, sequence: 42)
        let characters = Array(token.rawValue)
        let replacements = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=. é")
        var checked = 0
        for index in characters.indices {
            for replacement in replacements where replacement != characters[index] {
                var altered = characters
                altered[index] = replacement
                expectInvalid(ChangeToken(rawValue: String(altered)), "position \(index) → \(replacement)")
                checked += 1
            }
        }
        #expect(checked >= 44 * 69)
    }

    @Test("truncated, extended, padded and empty tokens are refused")
    func wrongLengths() {
        let raw = signer.token(recipient: "_u1", container: container, sequence: 42).rawValue
        for text in [String(raw.dropLast()), String(raw.dropFirst()), raw + "A", raw + "AAAA", raw + "=", "", "AAAA", " " + raw] {
            expectInvalid(ChangeToken(rawValue: text), "\(text)")
        }
    }

    @Test("a token of another user, another container or another key is refused")
    func bindings() throws {
        let token = signer.token(recipient: "_u1", container: container, sequence: 42)
        expectInvalid(token, recipient: "_u2")
        expectInvalid(token, container: "iCloud.com.example.other")
        expectInvalid(token, recipient: "_u1" + container, container: "")
        // Length prefixes keep ("_u1", "2x") and ("_u12", "x") apart.
        let shifted = signer.token(recipient: "_u1", container: "2x", sequence: 1)
        expectInvalid(shifted, recipient: "_u12", container: "x")
        let other = try ChangeTokenSigner(key: [UInt8](repeating: 7, count: 32))
        #expect(throws: ReaderError.self) { try other.sequence(of: token, recipient: "_u1", container: self.container) }
    }

    @Test("keys parse from hex or base64 and must have 32 bytes", arguments: [
        (String(repeating: "ab", count: 32), 32),
        (" " + String(repeating: "AB", count: 40) + "\n", 40),
        (Data(repeating: 0xFB, count: 32).base64EncodedString(), 32),
        (Data(repeating: 0xFB, count: 33).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"), 33),
        (String(Data(repeating: 0xFF, count: 34).base64EncodedString().trimmingCharacters(in: ["="])), 34),
    ])
    func keyParsing(text: String, length: Int) throws {
        #expect(try ChangeTokenSigner.keyBytes(text).count == length)
        _ = try ChangeTokenSigner(keyString: text)
    }

    @Test("short or unreadable keys are configuration errors", arguments: [
        String(repeating: "ab", count: 31), "", "   ", "not a key!", Data(count: 31).base64EncodedString(),
    ])
    func badKeys(text: String) {
        let error = ReaderFixtures.readerError { () throws(ReaderError) in try ChangeTokenSigner(keyString: text) }
        #expect(error?.serverErrorCode == "INVALID_CONFIGURATION")
        let short = ReaderFixtures.readerError { () throws(ReaderError) in try ChangeTokenSigner(key: SymmetricKey(size: .bits128)) }
        #expect(short?.reason.contains("at least 32 bytes") == true)
    }

    @Test("base64url round-trips every length and refuses non-canonical spellings")
    func base64URL() {
        var generator = SeededGenerator(seed: 5)
        for length in 0...40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("="))
            #expect(Base64URL.decode(text) == bytes)
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .trimmingCharacters(in: ["="])
            #expect(text == expected)
        }
        #expect(Base64URL.decode("AB") == nil)  // low bits of "B" are not zero
        #expect(Base64URL.decode("AQ") == [1])
        #expect(Base64URL.decode("A") == nil)
        #expect(Base64URL.decode("AQ==") == nil)
    }

    @Test("with an epoch, tokens are version 2: they resume on the same epoch, expire on another, and refuse any altered byte")
    func epochTokens() throws {
        var clusterA = signer
        clusterA.epoch = "cluster-A"
        var clusterB = signer
        clusterB.epoch = "cluster-B"
        let token = clusterA.token(recipient: "_u1", container: container, sequence: 50)
        #expect(token.rawValue.count == 50)
        #expect(try clusterA.sequence(of: token, recipient: "_u1", container: container) == 50)
        // A signer that does not know its epoch yet accepts the genuine token.
        #expect(try signer.sequence(of: token, recipient: "_u1", container: container) == 50)
        let expired = ReaderFixtures.readerError {
            () throws(ReaderError) in try clusterB.sequence(of: token, recipient: "_u1", container: container)
        }
        #expect(expired?.serverErrorCode == "CHANGE_TOKEN_EXPIRED")
        let bytes = try #require(Base64URL.decode(token.rawValue))
        #expect(bytes.count == ChangeTokenSigner.epochTokenLength)
        for index in bytes.indices {
            var altered = bytes
            altered[index] ^= 0x01
            let error = ReaderFixtures.readerError {
                () throws(ReaderError) in try clusterB.sequence(of: ChangeToken(rawValue: Base64URL.encode(altered)), recipient: "_u1", container: container)
            }
            #expect(error?.serverErrorCode == "BAD_REQUEST", "byte \(index)")
        }
        // Version 1 tokens (issued before the epoch was known, or by an older Herald) still resume.
        let legacy = signer.token(recipient: "_u1", container: container, sequence: 7)
        #expect(legacy.rawValue.count == 44)
        #expect(try clusterB.sequence(of: legacy, recipient: "_u1", container: container) == 7)
    }
}
