import Foundation

/// Great-circle distance on a spherical Earth (the haversine formula). Kept here rather
/// than shared with `HeraldPredicate`'s, which works in kilometres, so the scheduler
/// depends on `HeraldModel` alone.
enum Haversine {
    /// The mean Earth radius (IUGG), in metres.
    static let earthRadiusMetres = 6_371_008.8

    /// Metres between two points given in degrees.
    static func metres(latitude lat1: Double, longitude lon1: Double, latitude lat2: Double, longitude lon2: Double) -> Double {
        let toRadians = Double.pi / 180
        let dLat = (lat2 - lat1) * toRadians
        let dLon = (lon2 - lon1) * toRadians
        let a = sin(dLat / 2) * sin(dLat / 2)
            + cos(lat1 * toRadians) * cos(lat2 * toRadians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadiusMetres * asin(min(1, sqrt(a)))
    }
}
