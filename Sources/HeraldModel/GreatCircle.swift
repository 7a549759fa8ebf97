import Foundation

/// Great-circle distance on a spherical Earth (haversine formula): `distanceToLocation`
/// in predicates and region triggers of schedules.
public enum GreatCircle {
    /// Mean Earth radius in kilometres (IUGG).
    public static let earthRadiusKilometres = 6371.0088

    /// Kilometres between two points given in degrees.
    public static func kilometres(
        latitude lat1: Double, longitude lon1: Double, latitude lat2: Double, longitude lon2: Double
    ) -> Double {
        let toRadians = Double.pi / 180
        let dLat = (lat2 - lat1) * toRadians
        let dLon = (lon2 - lon1) * toRadians
        let a = sin(dLat / 2) * sin(dLat / 2)
            + cos(lat1 * toRadians) * cos(lat2 * toRadians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadiusKilometres * asin(min(1, sqrt(a)))
    }

    /// Metres between two points given in degrees.
    public static func metres(latitude lat1: Double, longitude lon1: Double, latitude lat2: Double, longitude lon2: Double) -> Double {
        kilometres(latitude: lat1, longitude: lon1, latitude: lat2, longitude: lon2) * 1000
    }
}
