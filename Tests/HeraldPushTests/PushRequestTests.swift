import HeraldModel
import HeraldPush
import Testing

@Suite("Push requests")
struct PushRequestTests {
    @Test("a request keeps the device and the notification's APNs headers")
    func keepsDeviceAndHeaders() {
        let device = Device(
            token: String(repeating: "ab", count: 32), user: "_u1", container: "iCloud.com.example.notes",
            platform: .apns, environment: .development, topic: "com.example.notes", registeredAt: 1)
        let apns = APNsPush(pushType: .alert, priority: .immediate, payload: .object([:]))
        let request = PushRequest(device: device, notificationID: "n-1", apns: apns, expiration: 0)
        #expect(request.device.environment == .development)
        #expect(request.apns.priority == .immediate)
    }
}
