import Foundation
import HeraldPredicate

/// A coarse latitude/longitude grid for `distanceToLocation:fromLocation:(field, point) < r`.
///
/// At level L a cell spans 360 / 2^L degrees both ways. A subscription is filed under the
/// (at most four) cells its circle's bounding box touches, at the deepest level whose cells
/// are at least as wide as that box, so a record is looked up in exactly one cell per level
/// in use. The box is exact on the sphere: its half-height is the angular radius and its
/// half-width `asin(sin r / cos latitude)`, the widest longitude a spherical cap reaches.
enum GeoCells {
    static let maxLevel = 20
    /// Circles this close to a pole (or wider than this) are not indexed: they are residuals.
    static let maxReachDegrees = 60.0

    static func plan(field: String, latitude: Double, longitude: Double, kilometres: Double) -> IndexPlan? {
        guard latitude.isFinite, longitude.isFinite, kilometres.isFinite else { return nil }
        guard kilometres > 0 else { return IndexPlan(entries: []) }
        // 0.1% and a metre of slack for rounding in the distance function.
        let angular = (kilometres * 1.001 + 0.001) / GreatCircleBounds.earthRadiusKilometres
        let halfHeight = angular * 180 / .pi
        guard halfHeight < maxReachDegrees, abs(latitude) + halfHeight < 89 else { return nil }
        let capLatitude = abs(latitude) * .pi / 180
        let halfWidth = asin(min(1, sin(angular) / cos(capLatitude + angular))) * 180 / .pi
        guard halfWidth < maxReachDegrees else { return nil }
        let extent = 2 * max(halfHeight, halfWidth)
        var level = 0
        while level < maxLevel, size(level + 1) >= extent { level += 1 }
        let probe = Probe(.cell, field: field, length: level)
        var keys = Set<IndexKey>()
        for lat in [latitude - halfHeight, latitude + halfHeight] {
            for lon in [longitude - halfWidth, longitude + halfWidth] {
                keys.insert(cell(latitude: lat, longitude: lon, level: level))
            }
        }
        return IndexPlan(entries: keys.map { .posting(PostingKey(probe: probe, value: $0)) })
    }

    static func size(_ level: Int) -> Double { 360 / Double(1 << level) }

    /// The cell holding a point (latitudes clamped, longitudes wrapped).
    static func cell(latitude: Double, longitude: Double, level: Int) -> IndexKey {
        let side = 1 << level
        let cellSize = size(level)
        let y = min(side - 1, max(0, Int(((latitude + 90) / cellSize).rounded(.down))))
        var x = Int(((longitude + 180) / cellSize).rounded(.down)) % side
        if x < 0 { x += side }
        return .number(Double(y * side + x))
    }
}
