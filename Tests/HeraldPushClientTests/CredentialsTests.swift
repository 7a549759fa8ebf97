import Foundation
import HeraldPushClient
import Testing

@Suite("Provider credentials")
struct CredentialsTests {
    @Test("APNs credentials from the environment: a missing variable is named")
    func apnsMissingVariable() {
        let error = #expect(throws: PushClientError.self) {
            _ = try APNsCredentials(environment: ["HERALD_APNS_TEAM_ID": "T"])
        }
        #expect(error?.source == "HERALD_APNS_KEY_ID")
        let noKey = #expect(throws: PushClientError.self) {
            _ = try APNsCredentials(environment: ["HERALD_APNS_TEAM_ID": "T", "HERALD_APNS_KEY_ID": "K"])
        }
        #expect(noKey?.code == .missingSetting)
        #expect(noKey?.reason.contains("HERALD_APNS_KEY") == true)
    }

    @Test("an unreadable key file and a PEM that is not a P-256 key are errors naming where")
    func apnsBadKey() {
        let missing = #expect(throws: PushClientError.self) {
            _ = try APNsCredentials(teamID: "T", keyID: "K", keyFile: "/nonexistent/AuthKey.p8")
        }
        #expect(missing?.source == "/nonexistent/AuthKey.p8")
        let garbage = #expect(throws: PushClientError.self) {
            _ = try APNsCredentials(environment: ["HERALD_APNS_TEAM_ID": "T", "HERALD_APNS_KEY_ID": "K", "HERALD_APNS_KEY": "junk"])
        }
        #expect(garbage?.source == "HERALD_APNS_KEY")
    }

    @Test("credentials never print their key")
    func neverPrintsKey() throws {
        let accounts = try StandInFixture.accounts.get()
        let apns = try accounts.apnsCredentials()
        let fcm = try accounts.fcmCredentials(tokenURL: "https://127.0.0.1/token")
        for text in ["\(apns)", String(reflecting: apns), "\(fcm)", String(reflecting: fcm)] {
            #expect(!text.contains("PRIVATE KEY"))
            #expect(!text.contains(accounts.apnsPrivateKeyPEM.split(separator: "\n")[1]))
            #expect(!text.contains(accounts.fcmPrivateKeyPEM.split(separator: "\n")[1]))
        }
        #expect("\(apns)" == "APNs credentials (team HERALDTEAM, key STANDIN001)")
    }

    @Test("a service account without a member is an error naming the member and the source")
    func fcmMissingMember() {
        let error = #expect(throws: PushClientError.self) {
            _ = try FCMCredentials(serviceAccountJSON: Data(#"{"project_id": "p"}"#.utf8), source: "sa.json")
        }
        #expect(error?.source == "sa.json")
        #expect(error?.reason.contains("client_email") == true)
        let variable = #expect(throws: PushClientError.self) { _ = try FCMCredentials(environment: [:]) }
        #expect(variable?.source == "HERALD_FCM_SERVICE_ACCOUNT_FILE")
    }

    @Test("the provider-token rule: 50 minutes, or 20 after an ExpiredProviderToken")
    func tokenRule() {
        let rule = ProviderTokenRule()
        #expect(!rule.isDue(age: .seconds(49 * 60), rejected: false))
        #expect(rule.isDue(age: .seconds(50 * 60), rejected: false))
        #expect(!rule.isDue(age: .seconds(10 * 60), rejected: true))
        #expect(rule.isDue(age: .seconds(20 * 60), rejected: true))
    }
}
