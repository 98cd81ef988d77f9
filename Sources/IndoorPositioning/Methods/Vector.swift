import IndoorModel

/// A small 3-vector for the trilateration frame.
struct Vector {
    var x: Double, y: Double, z: Double
    static func + (a: Vector, b: Vector) -> Vector { Vector(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z) }
    static func - (a: Vector, b: Vector) -> Vector { Vector(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z) }
    static func * (a: Vector, s: Double) -> Vector { Vector(x: a.x * s, y: a.y * s, z: a.z * s) }
    static func / (a: Vector, s: Double) -> Vector { Vector(x: a.x / s, y: a.y / s, z: a.z / s) }
}

@inline(__always) func vector(_ p: Point3D) -> Vector { Vector(x: p.x, y: p.y, z: p.z) }
@inline(__always) func dot(_ a: Vector, _ b: Vector) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }
@inline(__always) func norm(_ a: Vector) -> Double { dot(a, a).squareRoot() }
@inline(__always) func cross(_ a: Vector, _ b: Vector) -> Vector {
    Vector(x: a.y * b.z - a.z * b.y, y: a.z * b.x - a.x * b.z, z: a.x * b.y - a.y * b.x)
}
