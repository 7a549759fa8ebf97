import Foundation
import HeraldPredicate

/// A coarse latitude/longitude grid for `distanceToLocation:fromLocation:(field, point) < r`.
///
/// At level L a cell spans 360 / 2^L degrees both ways. A subscription is filed under the
/// (at most nine) cells its circle's bounding box touches, one level below the deepest whose
/// cells are at least as wide as that box, so a record is looked up in exactly one cell per
/// level in use. The box is exact on the sphere: its half-height is the angular radius and its
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
        // One level finer: cells at least half as wide as the box, so it touches at most
        // three a side. A record then brings the circles of a smaller neighbourhood: with
        // cells as wide as the box, about eight circles came for each one the point was in,
        // each evaluated (a great-circle distance) and, at a million subscriptions, a few
        // cache misses.
        if level < maxLevel { level += 1 }
        let probe = Probe(.cell, field: field, length: level)
        let side = 1 << level
        let (south, west) = position(latitude: latitude - halfHeight, longitude: longitude - halfWidth, level: level)
        let (north, east) = position(latitude: latitude + halfHeight, longitude: longitude + halfWidth, level: level)
        // Columns from west to east, across the antimeridian when east wrapped below west.
        let columns = east >= west ? Array(west...east) : Array(west..<side) + Array(0...east)
        var entries: [IndexPlan.Entry] = []
        for y in south...north {
            for x in columns { entries.append(.posting(PostingKey(probe: probe, value: .number(Double(y * side + x))))) }
        }
        return IndexPlan(entries: entries)
    }

    static func size(_ level: Int) -> Double { 360 / Double(1 << level) }

    /// The cell holding a point (latitudes clamped, longitudes wrapped).
    static func cell(latitude: Double, longitude: Double, level: Int) -> IndexKey {
        let (y, x) = position(latitude: latitude, longitude: longitude, level: level)
        return .number(Double(y * (1 << level) + x))
    }

    /// The row and column of the cell holding a point.
    private static func position(latitude: Double, longitude: Double, level: Int) -> (y: Int, x: Int) {
        let side = 1 << level
        let cellSize = size(level)
        let y = min(side - 1, max(0, Int(((latitude + 90) / cellSize).rounded(.down))))
        var x = Int(((longitude + 180) / cellSize).rounded(.down)) % side
        if x < 0 { x += side }
        return (y, x)
    }
}
