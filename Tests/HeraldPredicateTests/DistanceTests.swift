import HeraldModel
import Testing
@testable import HeraldPredicate

@Suite("distanceToLocation:fromLocation: in kilometres")
struct DistanceTests {
    @Test("haversine distance Paris–London is about 344 km")
    func haversine() {
        let km = GreatCircle.kilometres(latitude: 48.8566, longitude: 2.3522, latitude: 51.5074, longitude: -0.1278)
        #expect(abs(km - 343.9) < 1)
        #expect(GreatCircle.kilometres(latitude: 10, longitude: 20, latitude: 10, longitude: 20) == 0)
        let antipodes = GreatCircle.kilometres(latitude: 0, longitude: 0, latitude: 0, longitude: 180)
        #expect(abs(antipodes - .pi * GreatCircle.earthRadiusKilometres) < 0.001)
    }

    @Test("radius tests", arguments: [
        ("distanceToLocation:fromLocation:(place, LOCATION(48.8566, 2.3522)) < 0.001", true),
        ("distanceToLocation:fromLocation:(place, LOCATION(51.5074, -0.1278)) < 350", true),
        ("distanceToLocation:fromLocation:(place, LOCATION(51.5074, -0.1278)) < 340", false),
        ("distanceToLocation:fromLocation:(place, LOCATION(51.5074, -0.1278)) > 340", true),
        ("distanceToLocation:fromLocation:(stops, LOCATION(51.5, -0.12)) < 5", true),
        ("distanceToLocation:fromLocation:(title, LOCATION(51.5, -0.12)) < 5", false),
    ])
    func radius(format: String, expected: Bool) throws {
        #expect(try Fixtures.matches(format) == expected)
    }

    @Test("a location argument")
    func argument() throws {
        #expect(try Fixtures.matches(
            "distanceToLocation:fromLocation:(place, %@) < %@",
            [.location(latitude: 48.86, longitude: 2.35), .double(1)]))
    }
}
